/**
 * The title an error alert shows: what happened in words, from the error's name (the hosts'
 * `SerializedError` names: io's DataError, the backend's NotFound, ...). The message, which
 * names the file and the place, goes below it unchanged.
 */

const TITLES: Readonly<Record<string, string>> = {
  DataError: 'Cannot read this data',
  MatReadError: 'Cannot read this data',
  UnsupportedDTypeError: 'Cannot read this data',
  Damaged: 'The file is damaged',
  InvalidPath: 'Not a full path',
  Exists: 'The file already exists',
  Forbidden: 'Not allowed',
  Unauthorized: 'Not allowed',
  InvalidRequest: 'The request was refused',
  ParamError: 'A parameter is not valid',
  SolverInputError: 'The method cannot take this data',
  ImvcCbgInputError: 'The method cannot take this data',
  TooLarge: 'Too large for this machine',
  MemoryLimit: 'Out of memory',
  WorkerCrashed: 'The worker stopped',
  NumericalError: 'The computation failed',
  Unavailable: 'Not available here',
  NotReady: 'Not ready yet',
  Cancelled: 'Cancelled',
  BundleWriteError: 'Cannot save the run',
};

/** 'File not found' for a missing file, else the name's title, else a general one. */
export function errorTitle(error: { readonly name: string; readonly message: string }): string {
  if (error.name === 'NotFound') {
    return /no such (file|folder)/.test(error.message) ? 'File not found' : 'Not found';
  }
  return TITLES[error.name] ?? 'Something went wrong';
}
