import type { ConanInfo } from '../conan/conaninfo';
import type { FileType, RecipeRef } from '../conan/reference';

/** A Conan package: one recipe reference in one project. */
export interface Package extends RecipeRef {
  id: number;
  projectId: number;
  createdAt: Date;
  updatedAt: Date;
}

/** A recipe revision (`0` for v1) or a package revision of a package reference. */
export interface Revision {
  id: number;
  revision: string;
  createdAt: Date;
}

/** A package reference (binary id) under one recipe revision, with its conaninfo metadata. */
export interface PackageReference {
  id: number;
  packageId: number;
  recipeRevisionId: number;
  reference: string;
  info: ConanInfo;
  createdAt: Date;
}

/** A stored file and where its bytes live. */
export interface PackageFile {
  id: number;
  packageId: number;
  projectId: number;
  fileType: FileType;
  recipeRevisionId: number;
  packageReferenceId: number | null;
  packageRevisionId: number | null;
  fileName: string;
  storageKey: string;
  fileStore: number;
  size: number;
  md5: string;
  sha1: string;
  sha256: string;
  createdAt: Date;
  updatedAt: Date;
}

/** The columns of a package row, for statements that name them (prepared ones never select `*`). */
export const PACKAGE_COLUMNS = ['id', 'project_id', 'name', 'version', 'username', 'channel', 'created_at', 'updated_at'] as const;

/** `columns` qualified with `alias`, for a select or returning list. */
export function qualified(alias: string, columns: readonly string[]): string {
  return columns.map((c) => `${alias}.${c}`).join(', ');
}

export interface PackageRow {
  id: string | number;
  project_id: string | number;
  name: string;
  version: string;
  username: string;
  channel: string;
  created_at: Date;
  updated_at: Date;
}

export interface RevisionRow {
  id: string | number;
  revision: string;
  created_at: Date;
}

export interface PackageReferenceRow {
  id: string | number;
  package_id: string | number;
  recipe_revision_id: string | number;
  reference: string;
  info: ConanInfo;
  created_at: Date;
}

/** The columns of a file row (see `PACKAGE_COLUMNS`). */
export const FILE_COLUMNS = ['id', 'package_id', 'project_id', 'file_type', 'recipe_revision_id', 'package_reference_id', 'package_revision_id', 'file_name', 'storage_key', 'file_store', 'size', 'file_md5', 'file_sha1', 'file_sha256', 'created_at', 'updated_at'] as const;

export interface FileRow {
  id: string | number;
  package_id: string | number;
  project_id: string | number;
  file_type: FileType;
  recipe_revision_id: string | number;
  package_reference_id: string | number | null;
  package_revision_id: string | number | null;
  file_name: string;
  storage_key: string;
  file_store: number;
  size: string | number;
  file_md5: string;
  file_sha1: string;
  file_sha256: string;
  created_at: Date;
  updated_at: Date;
}

const num = (v: string | number): number => Number(v);
const numOrNull = (v: string | number | null): number | null => (v === null ? null : Number(v));

/** Maps a package row. */
export function toPackage(r: PackageRow): Package {
  return {
    id: num(r.id),
    projectId: num(r.project_id),
    name: r.name,
    version: r.version,
    username: r.username,
    channel: r.channel,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** Maps a recipe or package revision row. */
export function toRevision(r: RevisionRow): Revision {
  return { id: num(r.id), revision: r.revision, createdAt: r.created_at };
}

/** Maps a package reference row. */
export function toPackageReference(r: PackageReferenceRow): PackageReference {
  return {
    id: num(r.id),
    packageId: num(r.package_id),
    recipeRevisionId: num(r.recipe_revision_id),
    reference: r.reference,
    info: r.info ?? {},
    createdAt: r.created_at,
  };
}

/** Maps a file row. */
export function toPackageFile(r: FileRow): PackageFile {
  return {
    id: num(r.id),
    packageId: num(r.package_id),
    projectId: num(r.project_id),
    fileType: r.file_type,
    recipeRevisionId: num(r.recipe_revision_id),
    packageReferenceId: numOrNull(r.package_reference_id),
    packageRevisionId: numOrNull(r.package_revision_id),
    fileName: r.file_name,
    storageKey: r.storage_key,
    fileStore: r.file_store,
    size: num(r.size),
    md5: r.file_md5,
    sha1: r.file_sha1,
    sha256: r.file_sha256,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}
