// /openapi/v2 in the form kubectl asks for first (gnostic's openapi.v2.Document protobuf). The sandbox encodes
// the document's header only, without definitions: kubectl looks kinds up there just for client-side schema
// validation, and skips it for kinds it does not find, which is what it does for every kind the sandbox
// serves anyway (the v3 documents tell it the server validates fields itself). JSON clients get the full
// document. Field numbers: openapiv2/OpenAPIv2.proto (Document: 1 swagger, 2 info, 8 paths; Info: 1 title, 2 version).

function lengthDelimited(field: number, payload: Buffer): Buffer {
  const header: number[] = [(field << 3) | 2];
  let len = payload.length;
  while (len >= 0x80) {
    header.push((len & 0x7f) | 0x80);
    len >>>= 7;
  }
  header.push(len);
  return Buffer.concat([Buffer.from(header), payload]);
}

/** What kube-apiserver answers with (kubectl asks for the same type with `@v1.0`). */
export const openapiV2ProtobufType = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';

export function openapiV2Protobuf(info: { title: string; version: string }): Buffer {
  const infoMsg = Buffer.concat([lengthDelimited(1, Buffer.from(info.title)), lengthDelimited(2, Buffer.from(info.version))]);
  return Buffer.concat([lengthDelimited(1, Buffer.from('2.0')), lengthDelimited(2, infoMsg), lengthDelimited(8, Buffer.alloc(0))]);
}
