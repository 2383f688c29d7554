import { exportFilename, exportStatus, isTreeFile, type JobStatus } from '../src/exports/export-layout';

describe('exportStatus (Project#export_status)', () => {
  const cases: [JobStatus | null, boolean, string][] = [
    [null, false, 'none'],
    ['queued', false, 'queued'],
    ['started', false, 'started'],
    ['finished', true, 'finished'],
    [null, true, 'finished'],
    ['failed', false, 'failed'],
    ['failed', true, 'finished'],
    ['queued', true, 'regeneration_in_progress'],
    ['started', true, 'regeneration_in_progress'],
  ];
  it.each(cases)('job %s with archive %s is %s', (job, archive, expected) => {
    expect(exportStatus(job, archive)).toBe(expected);
  });
});

describe('exportFilename (Gitlab::ImportExport.export_filename)', () => {
  const at = new Date(Date.UTC(2017, 11, 5, 22, 11, 14, 148));
  it.each([
    ['namespace/project', '2017-12-05_22-11-148_namespace_project_export.tar.gz'],
    ['a/b/c', '2017-12-05_22-11-148_a_b_c_export.tar.gz'],
    ['group/' + 'x'.repeat(60), `2017-12-05_22-11-148_group_${'x'.repeat(51 - 27)}_export.tar.gz`],
  ])('%s → %s', (path, name) => {
    expect(exportFilename(path, at)).toBe(name);
  });
});

describe('isTreeFile', () => {
  it.each([
    ['tree/project.json', true],
    ['tree/project/issues.ndjson', true],
    ['tree/project/ci_pipelines.ndjson', true],
    ['tree/project/../x.ndjson', false],
    ['tree/project/issues.json', false],
    ['VERSION', false],
    ['tree/project/sub/issues.ndjson', false],
  ])('%s → %s', (name, ok) => {
    expect(isTreeFile(name)).toBe(ok);
  });
});
