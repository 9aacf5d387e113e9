// The scenarios' images are the sandbox's one catalog (defaultImages) under the e2e configuration, not a map of
// their own: the same names, resolving to the same programs; and every image a scenario's manifest names is in it.
import { DEFAULT_SUBMITTER_IMAGE } from '@rayjob/core';
import { defaultImages, lookupImage, type ImageCatalog, type ImageProgram } from '@rayjob/sandbox';
import { describe, expect, it } from 'vitest';
import { scenarioImageConfig, scenarioImages } from '../src/drivers/sandbox-images.ts';
import { rayJobManifest } from '../src/scenario/manifests.ts';
import { scenarios } from '../src/scenarios/index.ts';

const context = { podName: 'p', namespace: 'n', podIP: '10.0.0.9', containerName: 'c', env: {} };

/** A program as the kubelet uses it: its data, and what its rewrites make of typical argv (functions compare by use). */
const asRun = (program: ImageProgram | undefined) => program && {
  ...program,
  rewrite: program.rewrite && [['/submitter', '--', 'x'], ['ray', 'start', '--head'], ['sh', '-c', 'true']].map((argv) => program.rewrite?.(argv, context)),
  rewriteProbe: program.rewriteProbe?.(['wget', 'http://localhost:8265/api/gcs_healthz']),
};
const resolved = (catalog: ImageCatalog) => Object.fromEntries(Object.keys(catalog).sort().map((name) => [name, asRun(catalog[name])]));

/** Every image the scenarios' RayJobs name (head, workers, submitter), found by walking the manifests. */
function imagesIn(value: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) imagesIn(item, found);
  else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (key === 'image' && typeof item === 'string') found.add(item);
      else imagesIn(item, found);
    }
  }
  return found;
}

describe('the scenarios\' image catalog', () => {
  it.each([
    ['from source', {}],
    ['from a bundle with a compile cache', { submitterBundle: '/cache/submitter.mjs', compileCache: '/cache/compile' }],
  ])('is the sandbox\'s defaultImages under the e2e configuration (%s): the same names, the same programs', (_what, options) => {
    expect(resolved(scenarioImages(options))).toEqual(resolved(defaultImages(scenarioImageConfig(options))));
  });

  it('the configuration reaches the programs: bundle and compile cache for the submitter and for `ray job` in Ray pods', () => {
    const catalog = scenarioImages({ submitterBundle: import.meta.filename, compileCache: '/cache/compile' });
    const submitter = lookupImage(catalog, DEFAULT_SUBMITTER_IMAGE);
    const ray = lookupImage(catalog, 'rayproject/ray:2.58.0');
    expect(submitter?.entrypoint).toEqual([process.execPath, import.meta.filename]);
    expect(submitter?.env).toEqual({ NODE_COMPILE_CACHE: '/cache/compile' });
    expect(JSON.parse(ray?.env?.RAYJOB_RAY_JOB_COMMAND ?? 'null')).toEqual([process.execPath, import.meta.filename]);
    expect(ray?.env?.NODE_COMPILE_CACHE).toBe('/cache/compile');
    expect(ray?.env?.RAYJOB_EMULATOR_CLI).toMatch(/packages\/ray-emulator\/src\/cli\.ts$/);
  });

  it('a submitter image given as a program (an OCI layout) replaces the submitter\'s entry only', () => {
    const image: ImageProgram = { entrypoint: ['/submitter'] };
    const catalog = scenarioImages({ submitterImage: image });
    expect(lookupImage(catalog, DEFAULT_SUBMITTER_IMAGE)).toBe(image);
    expect(JSON.parse(lookupImage(catalog, 'rayproject/ray')?.env?.RAYJOB_RAY_JOB_COMMAND ?? 'null')?.[1]).toMatch(/apps\/submitter-sidecar\/src\/main\.ts$/);
  });

  it('maps every image the scenarios\' RayJobs name', () => {
    const catalog = scenarioImages();
    const named = new Set(scenarios.flatMap((s) => [...imagesIn(rayJobManifest('ns', 'name', s.rayJob))]));
    named.add(DEFAULT_SUBMITTER_IMAGE);
    expect([...named].filter((image) => lookupImage(catalog, image) === undefined)).toEqual([]);
    expect(named.size).toBeGreaterThan(1);
  });
});
