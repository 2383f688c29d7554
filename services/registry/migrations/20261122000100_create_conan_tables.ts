import type { Knex } from 'knex';

/**
 * Conan packages (one per project + name/version/username/channel), recipe revisions (v1 uses `0`),
 * package references with their conaninfo metadata, package revisions, and files (bytes in storage).
 * Children cascade with their parent; "latest" is the highest id.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('conan_packages', (t) => {
    t.bigIncrements('id');
    t.bigInteger('project_id').notNullable();
    t.text('name').notNullable();
    t.text('version').notNullable();
    t.text('username').notNullable();
    t.text('channel').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['project_id', 'name', 'version', 'username', 'channel'], { indexName: 'conan_packages_recipe_unique' });
  });
  await knex.raw('CREATE INDEX conan_packages_project_lower_name ON conan_packages (project_id, lower(name) text_pattern_ops)');

  await knex.schema.createTable('conan_recipe_revisions', (t) => {
    t.bigIncrements('id');
    t.bigInteger('package_id').notNullable().references('id').inTable('conan_packages').onDelete('CASCADE');
    t.text('revision').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['package_id', 'revision'], { indexName: 'conan_recipe_revisions_unique' });
  });

  await knex.schema.createTable('conan_package_references', (t) => {
    t.bigIncrements('id');
    t.bigInteger('package_id').notNullable().references('id').inTable('conan_packages').onDelete('CASCADE');
    t.bigInteger('recipe_revision_id').notNullable().references('id').inTable('conan_recipe_revisions').onDelete('CASCADE');
    t.text('reference').notNullable();
    t.jsonb('info').notNullable().defaultTo('{}');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['recipe_revision_id', 'reference'], { indexName: 'conan_package_references_unique' });
    t.index(['package_id'], 'conan_package_references_package');
  });

  await knex.schema.createTable('conan_package_revisions', (t) => {
    t.bigIncrements('id');
    t.bigInteger('package_reference_id').notNullable().references('id').inTable('conan_package_references').onDelete('CASCADE');
    t.text('revision').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['package_reference_id', 'revision'], { indexName: 'conan_package_revisions_unique' });
  });

  await knex.schema.createTable('conan_files', (t) => {
    t.bigIncrements('id');
    t.bigInteger('package_id').notNullable().references('id').inTable('conan_packages').onDelete('CASCADE');
    t.bigInteger('project_id').notNullable();
    t.text('file_type').notNullable();
    t.bigInteger('recipe_revision_id').notNullable().references('id').inTable('conan_recipe_revisions').onDelete('CASCADE');
    t.bigInteger('package_reference_id').references('id').inTable('conan_package_references').onDelete('CASCADE');
    t.bigInteger('package_revision_id').references('id').inTable('conan_package_revisions').onDelete('CASCADE');
    t.text('file_name').notNullable();
    t.text('storage_key').notNullable();
    t.smallint('file_store').notNullable();
    t.bigInteger('size').notNullable();
    t.text('file_md5').notNullable();
    t.text('file_sha1').notNullable();
    t.text('file_sha256').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['package_id'], 'conan_files_package');
    t.index(['package_revision_id'], 'conan_files_package_revision');
    t.index(['package_reference_id'], 'conan_files_package_reference');
    t.index(['project_id'], 'conan_files_project');
  });
  await knex.raw(
    'CREATE UNIQUE INDEX conan_files_slot_unique ON conan_files (recipe_revision_id, coalesce(package_revision_id, 0), file_type, file_name)',
  );
  await knex.raw(
    "ALTER TABLE conan_files ADD CONSTRAINT conan_files_type_check CHECK (file_type IN ('recipe', 'package') AND (file_type = 'recipe') = (package_revision_id IS NULL))",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('conan_files');
  await knex.schema.dropTableIfExists('conan_package_revisions');
  await knex.schema.dropTableIfExists('conan_package_references');
  await knex.schema.dropTableIfExists('conan_recipe_revisions');
  await knex.schema.dropTableIfExists('conan_packages');
}
