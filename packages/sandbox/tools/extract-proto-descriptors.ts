// Regenerates src/apiserver/encodings/proto/k8s-descriptors.json from a kubectl binary:
//   node packages/sandbox/tools/extract-proto-descriptors.ts [path/to/kubectl]
// Go binaries built with k8s.io/api keep each generated.proto's FileDescriptorProto gzipped in the binary
// (gogo-protobuf registers them). We find those gzip streams, parse the descriptors and keep, per message, its
// fields (number, name, type, label, message type): all the protobuf decoder needs. The field names of
// k8s.io's generated.proto are the JSON names, so a decoded message is the JSON object.
import { execFileSync } from 'node:child_process';
import { readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inflateRawSync } from 'node:zlib';
import { readFields } from '../src/apiserver/encodings/proto/wire.ts';

const kubectl = realpathSync(process.argv[2] ?? execFileSync('sh', ['-c', 'command -v kubectl'], { encoding: 'utf8' }).trim());
const version = execFileSync(kubectl, ['version', '--client', '-o', 'json'], { encoding: 'utf8' });
const binary = readFileSync(kubectl);
const gzipHeader = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00]);

type FieldRow = [number, string, number, number, string?];
const messages: Record<string, { f: FieldRow[]; map?: 1 }> = {};
const files: string[] = [];

const str = (b: Buffer | undefined): string => b?.toString('utf8') ?? '';

function addMessage(scope: string, buf: Buffer): void {
  let name = '';
  const rows: FieldRow[] = [];
  const nested: Buffer[] = [];
  let mapEntry = false;
  for (const f of readFields(buf)) {
    if (f.field === 1) name = str(f.bytes);
    if (f.field === 2 && f.bytes) {
      let number = 0;
      let fieldName = '';
      let type = 0;
      let label = 0;
      let typeName = '';
      for (const g of readFields(f.bytes)) {
        if (g.field === 1) fieldName = str(g.bytes);
        if (g.field === 3) number = Number(g.varint);
        if (g.field === 4) label = Number(g.varint);
        if (g.field === 5) type = Number(g.varint);
        if (g.field === 6) typeName = str(g.bytes).replace(/^\./, '');
      }
      rows.push(typeName === '' ? [number, fieldName, type, label] : [number, fieldName, type, label, typeName]);
    }
    if (f.field === 3 && f.bytes) nested.push(f.bytes);
    if (f.field === 7 && f.bytes) for (const o of readFields(f.bytes)) if (o.field === 7 && o.varint === 1n) mapEntry = true;
  }
  const full = `${scope}.${name}`;
  messages[full] = mapEntry ? { f: rows, map: 1 } : { f: rows };
  for (const n of nested) addMessage(full, n);
}

let at = binary.indexOf(gzipHeader);
while (at >= 0) {
  let file: Buffer | undefined;
  try {
    file = inflateRawSync(binary.subarray(at + 10, at + 10 + 4_000_000));
  } catch {
    file = undefined;
  }
  if (file && file[0] === 0x0a) {
    let name = '';
    let pkg = '';
    const bodies: Buffer[] = [];
    try {
      for (const f of readFields(file)) {
        if (f.field === 1) name = str(f.bytes);
        if (f.field === 2) pkg = str(f.bytes);
        if (f.field === 4 && f.bytes) bodies.push(f.bytes);
      }
    } catch {
      name = '';
    }
    if (/^k8s\.io\/(api|apimachinery)\/.*generated\.proto$/.test(name)) {
      files.push(name);
      for (const b of bodies) addMessage(pkg, b);
    }
  }
  at = binary.indexOf(gzipHeader, at + 1);
}

const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'apiserver', 'encodings', 'proto', 'k8s-descriptors.json');
const sorted = Object.fromEntries(Object.entries(messages).sort(([a], [b]) => (a < b ? -1 : 1)));
const clientVersion = (JSON.parse(version) as { clientVersion: { gitVersion: string } }).clientVersion.gitVersion;
writeFileSync(out, JSON.stringify({ source: `kubectl ${clientVersion}`, files: files.sort(), messages: sorted }) + '\n');
process.stdout.write(`${files.length} files, ${Object.keys(messages).length} messages -> ${out}\n`);
