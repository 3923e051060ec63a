/**
 * The loader process's executor: reads a dataset file as the library opens it and answers
 * only what the library keeps (the summary and the presence bitsets). The arrays stay here
 * and are dropped with the request.
 */
import { describeLoaded } from '../backend/library';
import { loadDataset } from '../io/load';
import { saveDataset } from '../io/save';
import type { LoadRequest, LoadResult } from '../shared/worker-protocol';

export async function executeLoad(request: LoadRequest): Promise<LoadResult> {
  const dataset = await loadDataset(request.files ?? request.path, request.options);
  if (request.save !== undefined) await saveDataset(dataset, request.save);
  return describeLoaded(dataset);
}
