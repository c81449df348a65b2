import { readAllureContainer, type AllureContainer, type AllureStep } from "./allure-model.js";
import type { SourceResolver } from "./allure-steps.js";
import { readInOrder, ReportError, type ReportFile } from "./types.js";

/** Deeper than any real suite nesting; a longer chain of containers is refused. */
export const MAX_CONTAINER_DEPTH = 32;

/** A before or after fixture, with how to find the files its attachments name. */
export interface Fixture {
  step: AllureStep;
  resolve: SourceResolver;
}

interface Indexed {
  file: string;
  container: AllureContainer;
  resolve: SourceResolver;
}

/**
 * Allure's `*-container.json` files: hooks (befores/afters) that ran for their children. A child
 * is a result uuid, or (in some adapters) another container, so fixtures are looked up through
 * every enclosing container, outermost first, with cycles and depth bounded.
 */
export class ContainerIndex {
  private readonly containers = new Map<string, Indexed>();
  private readonly parents = new Map<string, string[]>();

  /** Reads and checks every container file of the upload. */
  static async read(
    files: readonly ReportFile[],
    resolverFor: (fileName: string) => SourceResolver,
  ): Promise<ContainerIndex> {
    const index = new ContainerIndex();
    const read = async (file: ReportFile) => ({ file, container: await readAllureContainer(file) });
    for await (const { file, container } of readInOrder(files, read)) {
      index.add(file.name, container, resolverFor(file.name));
    }
    return index;
  }

  private add(file: string, container: AllureContainer, resolve: SourceResolver): void {
    const previous = this.containers.get(container.uuid);
    if (previous) {
      throw new ReportError(
        file,
        `container uuid ${container.uuid} is also used by ${previous.file}; each container must have its own`,
        { path: "$.uuid" },
      );
    }
    this.containers.set(container.uuid, { file, container, resolve });
    for (const child of new Set(container.children ?? [])) {
      const list = this.parents.get(child);
      if (list) list.push(container.uuid);
      else this.parents.set(child, [container.uuid]);
    }
  }

  /** The fixtures that ran around one result: befores outermost first, afters innermost first. */
  fixturesOf(resultUuid: string | null | undefined): { befores: Fixture[]; afters: Fixture[] } {
    const enclosing = resultUuid ? this.enclosing(resultUuid) : [];
    const befores: Fixture[] = [];
    const afters: Fixture[] = [];
    for (const { container, resolve } of [...enclosing].reverse()) {
      for (const step of container.befores ?? []) befores.push({ step, resolve });
    }
    for (const { container, resolve } of enclosing) {
      for (const step of container.afters ?? []) afters.push({ step, resolve });
    }
    return { befores: byStart(befores), afters: byStart(afters) };
  }

  /** Enclosing containers, innermost first, each once (so a cycle ends). */
  private enclosing(resultUuid: string): Indexed[] {
    const found: Indexed[] = [];
    const seen = new Set<string>();
    let level = this.parents.get(resultUuid) ?? [];
    for (let depth = 0; level.length > 0; depth++) {
      const next: string[] = [];
      for (const uuid of level) {
        const indexed = this.containers.get(uuid);
        if (seen.has(uuid) || !indexed) continue;
        seen.add(uuid);
        if (depth >= MAX_CONTAINER_DEPTH) {
          throw new ReportError(
            indexed.file,
            `containers are nested more than ${MAX_CONTAINER_DEPTH} levels deep`,
            { path: "$.children" },
          );
        }
        found.push(indexed);
        next.push(...(this.parents.get(uuid) ?? []));
      }
      level = next;
    }
    return found;
  }
}

/** Hooks in run order when every one has a start time; otherwise in container order. */
function byStart(fixtures: Fixture[]): Fixture[] {
  if (!fixtures.every((f) => typeof f.step.start === "number")) return fixtures;
  return [...fixtures].sort((a, b) => (a.step.start ?? 0) - (b.step.start ?? 0));
}
