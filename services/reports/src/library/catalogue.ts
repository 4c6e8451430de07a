import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ReportDefinitionError, parseReport } from './definition.ts';
import type { ReportDefinition } from './types.ts';

/** A folder of the report hierarchy; `folders` and `reports` hold the children's paths. */
export type Folder = { path: string; title: string; description?: string; folders: string[]; reports: string[] };

export type Catalogue = { folders: Map<string, Folder>; reports: Map<string, ReportDefinition> };

const ROOT_TITLE = 'Reports';
const FOLDER_NAME = /^[A-Za-z0-9_-]+$/;
const REPORT_FILE_NAME = /^[A-Za-z0-9_-]+\.xml$/;
// GET reports/featured lists the featured reports, so no top-level folder may take that name.
const RESERVED_TOP_LEVEL_FOLDERS = ['featured'];

/**
 * Every `*.xml` under each root is a report, every directory a folder ('' is
 * the root). Later roots add to earlier ones and replace their reports of the
 * same path, so operators can mount extra or overriding report folders.
 */
export function loadCatalogue(roots: string[]): Catalogue {
  const catalogue: Catalogue = { folders: new Map(), reports: new Map() };
  folderAt(catalogue, '');
  for (const root of roots) {
    loadDirectory(catalogue, root, '');
  }
  sortChildren(catalogue);
  return catalogue;
}

/** 'records_by_month' → 'Records by month'. */
export function titleFromName(name: string): string {
  const spaced = name.replaceAll('_', ' ');
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

function loadDirectory(catalogue: Catalogue, directory: string, folderPath: string): void {
  const folder = folderAt(catalogue, folderPath);
  for (const entry of readdirSync(directory).sort()) {
    // Skips .git and the like, and the ..data links of Kubernetes volume mounts (whose files are symlinks we follow).
    if (entry.startsWith('.')) {
      continue;
    }
    const fullPath = join(directory, entry);
    const stats = statSync(fullPath);
    if (stats.isDirectory()) {
      const childPath = childPathOf(folderPath, checkFolderName(entry, folderPath, fullPath));
      addOnce(folder.folders, childPath);
      loadDirectory(catalogue, fullPath, childPath);
    } else if (stats.isFile() && entry.toLowerCase() === 'readme.txt') {
      folder.description = readFileSync(fullPath, 'utf8').trim();
    } else if (stats.isFile() && entry.toLowerCase().endsWith('.xml')) {
      const reportPath = childPathOf(folderPath, checkReportFileName(entry, fullPath).slice(0, -'.xml'.length));
      catalogue.reports.set(reportPath, loadReport(reportPath, fullPath));
      addOnce(folder.reports, reportPath);
    }
  }
}

function loadReport(reportPath: string, file: string): ReportDefinition {
  try {
    return parseReport(reportPath, readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ReportDefinitionError(`Cannot load report file ${file}: ${(error as Error).message}`);
  }
}

function checkFolderName(name: string, parentPath: string, fullPath: string): string {
  if (!FOLDER_NAME.test(name)) {
    throw new ReportDefinitionError(`Report folder ${fullPath}: names may only use letters, digits, _ and -`);
  }
  if (parentPath === '' && RESERVED_TOP_LEVEL_FOLDERS.includes(name)) {
    throw new ReportDefinitionError(`Report folder ${fullPath}: "${name}" is reserved at the top level`);
  }
  return name;
}

function checkReportFileName(name: string, fullPath: string): string {
  if (!REPORT_FILE_NAME.test(name)) {
    throw new ReportDefinitionError(`Cannot load report file ${fullPath}: names may only use letters, digits, _ and -, ending .xml`);
  }
  return name;
}

function folderAt(catalogue: Catalogue, path: string): Folder {
  let folder = catalogue.folders.get(path);
  if (folder === undefined) {
    const title = path === '' ? ROOT_TITLE : titleFromName(path.slice(path.lastIndexOf('/') + 1));
    folder = { path, title, folders: [], reports: [] };
    catalogue.folders.set(path, folder);
  }
  return folder;
}

function childPathOf(folderPath: string, name: string): string {
  return folderPath === '' ? name : `${folderPath}/${name}`;
}

function addOnce(paths: string[], path: string): void {
  if (!paths.includes(path)) {
    paths.push(path);
  }
}

function sortChildren(catalogue: Catalogue): void {
  const byTitle = (titleOf: (path: string) => string) => (a: string, b: string) =>
    titleOf(a).localeCompare(titleOf(b)) || a.localeCompare(b);
  const folderTitle = (path: string) => catalogue.folders.get(path)?.title ?? '';
  const reportTitle = (path: string) => catalogue.reports.get(path)?.title ?? '';
  for (const folder of catalogue.folders.values()) {
    folder.folders.sort(byTitle(folderTitle));
    folder.reports.sort(byTitle(reportTitle));
  }
}
