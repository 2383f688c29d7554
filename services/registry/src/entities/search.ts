import type { ConanInfo } from '../conan/conaninfo';
import { recipeString } from '../conan/reference';
import type { Package, PackageReference } from '../packages/types';

/** `conans/search`: `{results: [<name/version@username/channel>, ...]}`. */
export function toSearchResults(pkgs: Package[]): { results: string[] } {
  return { results: pkgs.map(recipeString) };
}

/** `R/search` and `RR/search`: package reference → its conaninfo metadata (later references win). */
export function toPackageReferencesInfo(refs: PackageReference[]): Record<string, ConanInfo> {
  const out: Record<string, ConanInfo> = {};
  for (const r of refs) out[r.reference] = r.info;
  return out;
}
