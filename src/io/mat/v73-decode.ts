/**
 * MAT v7.3 decoding: MATLAB values from the HDF5 objects of an open file, in MATLAB's v7.3
 * layout (see `./v73.ts`). Every h5wasm call goes through `guarded()` and every dataset is
 * charged to the file's `DatasetBudget` before it is read (`./h5guard.ts`); recursion is
 * bounded and reference cycles are refused. A damaged value throws `Damaged`.
 */
import type * as H5 from 'h5wasm/node';
import {
  checkAttributeBytes,
  Damaged,
  guarded,
  type DatasetBudget,
  type H5Instance,
} from './h5guard';
import { numel } from './types';
import type {
  MatCell,
  MatChar,
  MatNumeric,
  MatSparse,
  MatStruct,
  MatValue,
  NumericClass,
} from './types';

type H5Entity = H5.Group | H5.Dataset;
type H5Output = H5.OutputData;

/** Maximum nesting of cells/structs (MATLAB files in the wild nest 2–3 deep). */
const MAX_DEPTH = 64;

/** Per-file reading state. */
export interface Ctx {
  readonly inst: H5Instance;
  readonly file: H5.File;
  readonly warnings: string[];
  /** HDF5 paths being read (reference-cycle guard). */
  readonly active: Set<string>;
  /** What the file's datasets may still decode to. */
  readonly budget: DatasetBudget;
}

export function getEntity(ctx: Ctx, h5path: string): H5Entity {
  const { inst, file } = ctx;
  const entity = guarded(inst, `open ${h5path}`, () => file.get(h5path));
  if (entity instanceof inst.api.Group || entity instanceof inst.api.Dataset) return entity;
  if (entity === null) throw new Damaged(`HDF5 object ${h5path} not found`);
  throw new Damaged(`HDF5 object ${h5path} is a link or named type, not a dataset or group`);
}

/** Names of the attributes of an HDF5 object. */
function attributeNames(ctx: Ctx, entity: H5Entity): Set<string> {
  const { inst } = ctx;
  const names = guarded(inst, `attributes of ${entity.path}`, () =>
    inst.module.get_attribute_names(entity.file_id, entity.path),
  );
  return new Set(Array.isArray(names) ? names.filter((n) => typeof n === 'string') : []);
}

/** Value of one attribute, after checking its size. */
function attribute(ctx: Ctx, entity: H5Entity, name: string): H5Output | null {
  const { inst } = ctx;
  return guarded(inst, `attribute ${name} of ${entity.path}`, () => {
    const attr = new inst.api.Attribute(entity.file_id, entity.path, name);
    checkAttributeBytes(attr.metadata.size * attr.metadata.total_size);
    return attr.value;
  });
}

/** A string attribute (MATLAB_class), or undefined when absent. */
function stringAttribute(
  ctx: Ctx,
  entity: H5Entity,
  names: Set<string>,
  name: string,
): string | undefined {
  if (!names.has(name)) return undefined;
  const v = attribute(ctx, entity, name);
  if (typeof v === 'string') return v;
  if (Array.isArray(v) && v.length === 1 && typeof v[0] === 'string') return v[0];
  throw new Damaged(`attribute ${name} of ${entity.path} is not a string`);
}

/** A scalar numeric attribute (MATLAB_empty, MATLAB_sparse), or undefined when absent. */
function numberAttribute(
  ctx: Ctx,
  entity: H5Entity,
  names: Set<string>,
  name: string,
): number | undefined {
  if (!names.has(name)) return undefined;
  const v = attribute(ctx, entity, name);
  const n = scalarNumber(v);
  if (n === undefined) throw new Damaged(`attribute ${name} of ${entity.path} is not a number`);
  return n;
}

function scalarNumber(v: H5Output | null): number | undefined {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'boolean') return v ? 1 : 0;
  if ((ArrayBuffer.isView(v) || Array.isArray(v)) && v.length === 1) {
    return scalarNumber(v[0] as H5Output);
  }
  return undefined;
}

const NUMERIC_CLASSES: ReadonlySet<string> = new Set<NumericClass>([
  'double',
  'single',
  'int8',
  'uint8',
  'int16',
  'uint16',
  'int32',
  'uint32',
  'int64',
  'uint64',
]);

/** MATLAB classes stored as MCOS objects (data in `#subsystem#`). */
const MCOS_CLASSES: ReadonlySet<string> = new Set([
  'string',
  'datetime',
  'duration',
  'calendarDuration',
  'table',
  'timetable',
  'categorical',
  'containers.Map',
]);

/** Reads one MATLAB value (variable, cell element or field) from an HDF5 object. */
export function readValue(ctx: Ctx, entity: H5Entity, where: string, depth: number): MatValue {
  if (depth > MAX_DEPTH) throw new Damaged(`nested deeper than ${MAX_DEPTH} levels`);
  const key = entity.path;
  if (ctx.active.has(key)) throw new Damaged(`reference cycle through ${key}`);
  ctx.active.add(key);
  try {
    return readObject(ctx, entity, where, depth);
  } finally {
    ctx.active.delete(key);
  }
}

function readObject(ctx: Ctx, entity: H5Entity, where: string, depth: number): MatValue {
  const attrs = attributeNames(ctx, entity);
  const cls = stringAttribute(ctx, entity, attrs, 'MATLAB_class');
  const unsupported = (what: string): MatValue => {
    ctx.warnings.push(`'${where}' is not supported (${what})`);
    return { type: 'unsupported', what };
  };

  if (cls === 'function_handle') return unsupported('function handle');
  if (attrs.has('MATLAB_object_decode') || (cls !== undefined && MCOS_CLASSES.has(cls))) {
    return unsupported(`object (MCOS) of class '${cls ?? 'unknown'}'`);
  }

  if (entity instanceof ctx.inst.api.Group) {
    if (attrs.has('MATLAB_sparse')) return readSparse(ctx, entity, attrs, cls, where);
    if (cls === undefined || cls === 'struct') return readStruct(ctx, entity, attrs, where, depth);
    return unsupported(`object of class '${cls}'`);
  }

  const ds = entity as H5.Dataset;
  const meta = guarded(ctx.inst, `metadata of ${ds.path}`, () => ds.metadata);
  if (numberAttribute(ctx, ds, attrs, 'MATLAB_empty') === 1) {
    return readEmpty(ctx, ds, meta, attrs, cls, where);
  }
  if (cls === 'cell') return readCell(ctx, ds, meta, where, depth);
  if (cls === 'char') return readChar(ctx, ds, meta);
  if (cls === 'logical') return readNumeric(ctx, ds, meta, 'logical');
  if (cls !== undefined && NUMERIC_CLASSES.has(cls)) {
    return readNumeric(ctx, ds, meta, cls as NumericClass);
  }
  if (cls === 'canonical empty') return emptyNumeric([0, 0]);
  if (cls === 'struct') throw new Damaged('struct stored as a dataset but not marked empty');
  if (cls === undefined) {
    const inferred = classOfStorage(meta);
    if (inferred) {
      ctx.warnings.push(`'${where}' has no MATLAB_class; read as ${inferred} from its storage`);
      return readNumeric(ctx, ds, meta, inferred);
    }
    return unsupported('HDF5 dataset without MATLAB_class');
  }
  return unsupported(`MATLAB class '${cls}'`);
}

/** MATLAB dims of an HDF5 dataset: its shape reversed, at least two entries. */
function matlabDims(meta: H5.Metadata): number[] {
  const shape = meta.shape ?? [];
  const dims = [...shape].reverse();
  while (dims.length < 2) dims.push(1);
  return dims;
}

/**
 * Reads a dataset's value after checking that its size is plausible for the file: contiguous
 * data cannot exceed the file, compressed (chunked) data cannot exceed it by more than deflate
 * can expand.
 */
function readDatasetValue(ctx: Ctx, ds: H5.Dataset, meta: H5.Metadata): H5Output | null {
  const bytes = ctx.budget.plausibleBytes(ds.path, meta);
  const dims = matlabDims(meta);
  if (numel(dims) !== meta.total_size) {
    throw new Damaged(
      `dataset ${ds.path}: dims ${dims.join('x')} do not match ${meta.total_size} values`,
    );
  }
  ctx.budget.charge(ds.path, bytes);
  return guarded(ctx.inst, `read ${ds.path}`, () => ds.value);
}

/** Widens integer/float data to Float64Array (the buffer is reused when already float64). */
function toFloat64(data: H5Output | null, what: string): Float64Array {
  if (data instanceof Float64Array) return data;
  if (data instanceof BigInt64Array || data instanceof BigUint64Array) {
    const out = new Float64Array(data.length);
    for (let i = 0; i < data.length; i++) out[i] = Number(data[i]);
    return out;
  }
  if (ArrayBuffer.isView(data) && !(data instanceof DataView)) return Float64Array.from(data);
  const n = scalarNumber(data);
  if (n !== undefined) return Float64Array.of(n);
  throw new Damaged(`${what} is not numeric data`);
}

function isComplexType(meta: H5.Metadata): boolean {
  const members = meta.compound_type?.members ?? [];
  return members.some((m) => m.name === 'real') && members.some((m) => m.name === 'imag');
}

/** Splits complex compound rows ([real, imag] per element) into two arrays. */
function splitComplex(
  data: H5Output | null,
  meta: H5.Metadata,
  what: string,
): { re: Float64Array; im: Float64Array } {
  const members = meta.compound_type?.members ?? [];
  const ri = members.findIndex((m) => m.name === 'real');
  const ii = members.findIndex((m) => m.name === 'imag');
  const rows = Array.isArray(data) ? data : data === null ? [] : [data];
  const re = new Float64Array(rows.length);
  const im = new Float64Array(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    if (!Array.isArray(row)) throw new Damaged(`${what}: complex element is not a pair`);
    const r = scalarNumber(row[ri] ?? null);
    const m = scalarNumber(row[ii] ?? null);
    if (r === undefined || m === undefined) throw new Damaged(`${what}: bad complex element`);
    re[i] = r;
    im[i] = m;
  }
  return { re, im };
}

const INTEGER_TYPE = 0;
const FLOAT_TYPE = 1;
const COMPOUND_TYPE = 6;
const REFERENCE_TYPE = 7;

function readNumeric(
  ctx: Ctx,
  ds: H5.Dataset,
  meta: H5.Metadata,
  cls: NumericClass | 'logical',
): MatNumeric {
  const dims = matlabDims(meta);
  const complex = meta.type === COMPOUND_TYPE && isComplexType(meta);
  if (!complex && meta.type !== INTEGER_TYPE && meta.type !== FLOAT_TYPE) {
    throw new Damaged(`class ${cls} stored with an unexpected HDF5 type (${meta.type})`);
  }
  const data = readDatasetValue(ctx, ds, meta);
  if (complex) {
    const { re, im } = splitComplex(data, meta, ds.path);
    return { type: 'numeric', class: cls, dims, re, im };
  }
  const re = toFloat64(data, ds.path);
  if (re.length !== numel(dims)) throw new Damaged(`${ds.path}: short read`);
  return { type: 'numeric', class: cls, dims, re };
}

function emptyNumeric(dims: number[], cls: NumericClass | 'logical' = 'double'): MatNumeric {
  return { type: 'numeric', class: cls, dims, re: new Float64Array(0) };
}

function classOfStorage(meta: H5.Metadata): NumericClass | undefined {
  if (meta.type === FLOAT_TYPE) {
    return meta.size === 8 ? 'double' : meta.size === 4 ? 'single' : undefined;
  }
  if (meta.type !== INTEGER_TYPE) return undefined;
  const bits = meta.size * 8;
  if (![8, 16, 32, 64].includes(bits)) return undefined;
  return `${meta.signed ? 'int' : 'uint'}${bits}` as NumericClass;
}

/** `MATLAB_empty` = 1: the dataset holds the MATLAB dims (some 0), not data. */
function readEmpty(
  ctx: Ctx,
  ds: H5.Dataset,
  meta: H5.Metadata,
  attrs: Set<string>,
  cls: string | undefined,
  where: string,
): MatValue {
  const raw = toFloat64(readDatasetValue(ctx, ds, meta), ds.path);
  let dims = Array.from(raw);
  if (dims.length < 2 || dims.some((d) => !Number.isSafeInteger(d) || d < 0)) {
    throw new Damaged(`empty array with invalid dims [${dims.join(', ')}]`);
  }
  if (numel(dims) !== 0) {
    ctx.warnings.push(`'${where}' is marked empty but its dims are ${dims.join('x')}; read as 0x0`);
    dims = [0, 0];
  }
  switch (cls) {
    case 'char':
      return { type: 'char', dims, text: '' } satisfies MatChar;
    case 'cell':
      return { type: 'cell', dims, items: [] } satisfies MatCell;
    case 'struct':
      return { type: 'struct', dims, fields: fieldNames(ctx, ds, attrs) ?? [], items: [] };
    case 'logical':
      return emptyNumeric(dims, 'logical');
    default:
      return emptyNumeric(
        dims,
        cls !== undefined && NUMERIC_CLASSES.has(cls) ? (cls as NumericClass) : 'double',
      );
  }
}

/** Element references of a cell or struct-array field dataset. */
function readReferences(ctx: Ctx, ds: H5.Dataset, meta: H5.Metadata): H5.Reference[] {
  if (meta.type !== REFERENCE_TYPE || meta.ref_type !== 'object') {
    throw new Damaged(`${ds.path} should hold object references`);
  }
  const data = readDatasetValue(ctx, ds, meta);
  const refs = Array.isArray(data) ? data : data === null ? [] : [data];
  return refs.map((r) => {
    if (!(r instanceof ctx.inst.api.Reference)) throw new Damaged(`${ds.path}: bad reference`);
    return r;
  });
}

function dereference(ctx: Ctx, ref: H5.Reference, what: string): H5Entity {
  const target = guarded(ctx.inst, `dereference ${what}`, () => ctx.file.dereference(ref));
  if (target instanceof ctx.inst.api.Group || target instanceof ctx.inst.api.Dataset) {
    return target;
  }
  throw new Damaged(`${what}: reference to a missing object`);
}

function readCell(
  ctx: Ctx,
  ds: H5.Dataset,
  meta: H5.Metadata,
  where: string,
  depth: number,
): MatCell {
  const dims = matlabDims(meta);
  const refs = readReferences(ctx, ds, meta);
  const items = refs.map((ref, i) => {
    const name = `${where}{${i + 1}}`;
    return readValue(ctx, dereference(ctx, ref, name), name, depth + 1);
  });
  return { type: 'cell', dims, items };
}

function readChar(ctx: Ctx, ds: H5.Dataset, meta: H5.Metadata): MatChar {
  if (meta.type !== INTEGER_TYPE) throw new Damaged(`char stored with HDF5 type ${meta.type}`);
  const dims = matlabDims(meta);
  const data = readDatasetValue(ctx, ds, meta);
  const codes =
    typeof data === 'number'
      ? [data]
      : ArrayBuffer.isView(data) && !(data instanceof DataView)
        ? data
        : null;
  if (codes === null || codes.length !== numel(dims))
    throw new Damaged(`${ds.path}: bad char data`);
  let text = '';
  const CHUNK = 8192;
  for (let i = 0; i < codes.length; i += CHUNK) {
    const part: number[] = [];
    const end = Math.min(codes.length, i + CHUNK);
    for (let j = i; j < end; j++) part.push(Number(codes[j]) & 0xffff);
    text += String.fromCharCode(...part);
  }
  return { type: 'char', dims, text };
}

/** Index arrays of a sparse group (ir, jc) as non-negative integers below 2^31. */
function readIndexArray(ctx: Ctx, group: H5.Group, member: string): Int32Array | undefined {
  const entity = guarded(ctx.inst, `open ${group.path}/${member}`, () => group.get(member));
  if (entity === null) return undefined;
  if (!(entity instanceof ctx.inst.api.Dataset)) {
    throw new Damaged(`sparse member ${member} is not a dataset`);
  }
  const meta = guarded(ctx.inst, `metadata of ${entity.path}`, () => entity.metadata);
  if (meta.type !== INTEGER_TYPE && meta.type !== FLOAT_TYPE) {
    throw new Damaged(`sparse member ${member} is not numeric`);
  }
  const values = toFloat64(readDatasetValue(ctx, entity, meta), entity.path);
  const out = new Int32Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i] as number;
    if (!Number.isInteger(v) || v < 0 || v > 0x7fffffff) {
      throw new Damaged(`sparse ${member}[${i}] = ${v} is not a valid index`);
    }
    out[i] = v;
  }
  return out;
}

function readSparse(
  ctx: Ctx,
  group: H5.Group,
  attrs: Set<string>,
  cls: string | undefined,
  where: string,
): MatSparse {
  if (cls !== 'double' && cls !== 'logical') {
    throw new Damaged(`sparse array of class '${cls ?? 'unknown'}'`);
  }
  const rows = numberAttribute(ctx, group, attrs, 'MATLAB_sparse');
  if (rows === undefined || !Number.isInteger(rows) || rows < 0 || rows > 0x7fffffff) {
    throw new Damaged(`invalid MATLAB_sparse (rows) attribute`);
  }
  const jc = readIndexArray(ctx, group, 'jc');
  if (!jc || jc.length < 1) throw new Damaged('sparse array without column pointers (jc)');
  const cols = jc.length - 1;
  const nnz = jc[cols] as number;
  if (jc[0] !== 0) throw new Damaged('sparse jc[0] is not 0');
  for (let j = 0; j < cols; j++) {
    if ((jc[j + 1] as number) < (jc[j] as number)) throw new Damaged('sparse jc decreases');
  }
  const ir = readIndexArray(ctx, group, 'ir') ?? new Int32Array(0);
  if (ir.length !== nnz) {
    throw new Damaged(`sparse ir has ${ir.length} entries, jc says ${nnz}`);
  }
  for (let p = 0; p < nnz; p++) {
    if ((ir[p] as number) >= rows) throw new Damaged(`sparse row index ${ir[p]} >= ${rows} rows`);
  }
  const dims: [number, number] = [rows, cols];
  const dataEntity = guarded(ctx.inst, `open ${group.path}/data`, () => group.get('data'));
  if (dataEntity === null) {
    if (nnz !== 0) throw new Damaged(`sparse array with ${nnz} nonzeros has no data`);
    return { type: 'sparse', class: cls, dims, ir, jc, pr: new Float64Array(0) };
  }
  if (!(dataEntity instanceof ctx.inst.api.Dataset)) {
    throw new Damaged('sparse member data is not a dataset');
  }
  const meta = guarded(ctx.inst, `metadata of ${dataEntity.path}`, () => dataEntity.metadata);
  if (meta.total_size !== nnz) {
    throw new Damaged(`sparse data has ${meta.total_size} values, jc says ${nnz}`);
  }
  const raw = readDatasetValue(ctx, dataEntity, meta);
  if (meta.type === COMPOUND_TYPE && isComplexType(meta)) {
    const { re, im } = splitComplex(raw, meta, dataEntity.path);
    return { type: 'sparse', class: cls, dims, ir, jc, pr: re, pi: im };
  }
  if (meta.type !== INTEGER_TYPE && meta.type !== FLOAT_TYPE) {
    throw new Damaged(`sparse data has HDF5 type ${meta.type}`);
  }
  const pr = toFloat64(raw, dataEntity.path);
  if (pr.length !== nnz) throw new Damaged(`${where}: sparse data short read`);
  return { type: 'sparse', class: cls, dims, ir, jc, pr };
}

/**
 * Field names from `MATLAB_fields` (a vlen array of char arrays, h5wasm gives each name as an
 * array of one-character strings), or undefined when absent/unreadable.
 */
function fieldNames(ctx: Ctx, entity: H5Entity, attrs: Set<string>): string[] | undefined {
  if (!attrs.has('MATLAB_fields')) return undefined;
  let v: H5Output | null;
  try {
    v = attribute(ctx, entity, 'MATLAB_fields');
  } catch {
    return undefined;
  }
  const list = Array.isArray(v) ? v : typeof v === 'string' ? [v] : [];
  const names: string[] = [];
  for (const item of list) {
    if (typeof item === 'string') names.push(item);
    else if (Array.isArray(item) && item.every((c) => typeof c === 'string')) {
      names.push(item.join(''));
    } else return undefined;
  }
  return names;
}

function readStruct(
  ctx: Ctx,
  group: H5.Group,
  attrs: Set<string>,
  where: string,
  depth: number,
): MatStruct {
  const members = guarded(ctx.inst, `list ${group.path}`, () => group.keys());
  const listed = fieldNames(ctx, group, attrs);
  const fields = listed
    ? [...listed.filter((f) => members.includes(f)), ...members.filter((m) => !listed.includes(m))]
    : members;
  const missing = listed?.filter((f) => !members.includes(f)) ?? [];
  if (missing.length > 0) throw new Damaged(`struct fields missing: ${missing.join(', ')}`);

  const entities = new Map<string, H5Entity>();
  for (const f of fields) entities.set(f, getEntity(ctx, `${group.path}/${f}`));

  // A struct array stores each field as a dataset of references without MATLAB_class.
  const arrayFields = new Map<string, { dims: number[]; refs: H5.Reference[] }>();
  for (const [f, e] of entities) {
    if (!(e instanceof ctx.inst.api.Dataset)) continue;
    const meta = guarded(ctx.inst, `metadata of ${e.path}`, () => e.metadata);
    if (meta.type !== REFERENCE_TYPE) continue;
    if (attributeNames(ctx, e).has('MATLAB_class')) continue;
    arrayFields.set(f, { dims: matlabDims(meta), refs: readReferences(ctx, e, meta) });
  }

  if (arrayFields.size === 0) {
    const record: Record<string, MatValue> = {};
    for (const [f, e] of entities) record[f] = readValue(ctx, e, `${where}.${f}`, depth + 1);
    return { type: 'struct', dims: [1, 1], fields, items: [record] };
  }

  if (arrayFields.size !== fields.length) {
    throw new Damaged('struct array with fields of mixed layout');
  }
  const first = arrayFields.values().next().value;
  const dims = first ? first.dims : [0, 0];
  const n = numel(dims);
  for (const { dims: d, refs } of arrayFields.values()) {
    if (d.join('x') !== dims.join('x') || refs.length !== n) {
      throw new Damaged('struct array fields of different sizes');
    }
  }
  const items: Record<string, MatValue>[] = [];
  for (let i = 0; i < n; i++) {
    const record: Record<string, MatValue> = {};
    for (const [f, { refs }] of arrayFields) {
      const name = `${where}(${i + 1}).${f}`;
      record[f] = readValue(ctx, dereference(ctx, refs[i] as H5.Reference, name), name, depth + 1);
    }
    items.push(record);
  }
  return { type: 'struct', dims, fields, items };
}
