"""Frames records in the AWS Glue schema registry's wire format and produces them with librdkafka.

Independent of Sluice's code: the datum is encoded with fastavro (Avro), protoc-generated
classes of the protobuf runtime (Protobuf) or json (JSON Schema); the frame is written here
as the Glue serializers write it (aws-glue-schema-registry's GlueSchemaRegistryDefaultCompression
and ProtobufWireFormatEncoder):

  byte 0      header version 3
  byte 1      compression: 0 none, 5 zlib (the payload below is then zlib-deflated)
  bytes 2-17  the schema version UUID, 16 bytes big-endian
  then        the payload: the Avro datum; for Protobuf one unsigned varint, the message's
              position among all the file's messages (nested ones included) sorted by full
              name, then the message; for JSON the UTF-8 text.

Reads one JSON document from stdin:
  {"brokers": "127.0.0.1:28092", "topic": "t", "workdir": "/tmp/x", "produce": true,
   "records": [{"partition": 0, "key": "<base64>|null", "value": <value>}]}
where <value> is null (a tombstone), {"raw": "<base64>"} (bytes as they are), or
  {"format": "avro", "schema": "<Avro JSON>", "data": {...}, "versionId": "<uuid>", "compression": "none|zlib"}
  {"format": "protobuf", "schema": "<.proto text>", "message": "pkg.Msg", "data": {...}, "versionId": ..., "compression": ...}
  {"format": "json", "data": ..., "versionId": ..., "compression": ...}
Prints {"offsets": [[partition, offset], ...], "encoded": ["<base64 value as produced>"|null, ...],
        "payload": ["<base64 payload after the header, uncompressed>"|null, ...]}.
"""
import base64
import hashlib
import importlib.util
import io
import json
import os
import sys
import uuid
import zlib

import fastavro
from confluent_kafka import Producer
from google.protobuf import json_format

from delivery import Deliveries

HEADER_VERSION = 3
COMPRESSION = {"none": 0, "zlib": 5}


def varint(n: int) -> bytes:
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        if n:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def proto_module(schema: str, workdir: str):
    """Compiles the .proto text with protoc (grpcio-tools) and imports the generated module."""
    from grpc_tools import protoc

    name = "glue_" + hashlib.sha256(schema.encode()).hexdigest()[:16]
    proto = os.path.join(workdir, f"{name}.proto")
    with open(proto, "w") as f:
        f.write(schema)
    if protoc.main(["protoc", f"-I{workdir}", f"--python_out={workdir}", proto]) != 0:
        raise SystemExit(f"protoc failed on {proto}")
    spec = importlib.util.spec_from_file_location(f"{name}_pb2", os.path.join(workdir, f"{name}_pb2.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def glue_message_index(file_descriptor, full_name: str) -> int:
    """The message's position among every message of the file, nested ones included, sorted by full name."""
    names = []
    queue = list(file_descriptor.message_types_by_name.values())
    while queue:
        d = queue.pop(0)
        names.append(d.full_name)
        queue.extend(d.nested_types)
    return sorted(names).index(full_name)


def find_message(file_descriptor, full_name: str):
    queue = list(file_descriptor.message_types_by_name.values())
    while queue:
        d = queue.pop(0)
        if d.full_name == full_name:
            return d
        queue.extend(d.nested_types)
    raise SystemExit(f"no message {full_name} in the schema")


def payload_of(value: dict, workdir: str) -> bytes:
    fmt = value["format"]
    if fmt == "avro":
        out = io.BytesIO()
        fastavro.schemaless_writer(out, fastavro.parse_schema(json.loads(value["schema"])), value["data"])
        return out.getvalue()
    if fmt == "json":
        return json.dumps(value["data"]).encode("utf-8")
    if fmt == "protobuf":
        module = proto_module(value["schema"], workdir)
        descriptor = find_message(module.DESCRIPTOR, value["message"])
        from google.protobuf import message_factory

        cls = message_factory.GetMessageClass(descriptor)
        message = json_format.ParseDict(value["data"], cls())
        return varint(glue_message_index(module.DESCRIPTOR, value["message"])) + message.SerializeToString()
    raise SystemExit(f"unknown format {fmt}")


def frame(value: dict, payload: bytes) -> bytes:
    compression = value.get("compression", "none")
    body = zlib.compress(payload) if compression == "zlib" else payload
    return bytes([HEADER_VERSION, COMPRESSION[compression]]) + uuid.UUID(value["versionId"]).bytes + body


def main() -> None:
    spec = json.load(sys.stdin)
    decode = lambda v: None if v is None else base64.b64decode(v)
    encode = lambda v: None if v is None else base64.b64encode(v).decode()
    values = []
    payloads = []
    for r in spec["records"]:
        v = r.get("value")
        if v is None:
            values.append(None)
            payloads.append(None)
        elif "raw" in v:
            values.append(decode(v["raw"]))
            payloads.append(None)
        else:
            payload = payload_of(v, spec["workdir"])
            values.append(frame(v, payload))
            payloads.append(payload)

    deliveries = Deliveries()
    if spec.get("produce", True):
        producer = Producer({"bootstrap.servers": spec["brokers"], "linger.ms": 20, "enable.idempotence": True, "acks": "all"})
        for r, value in zip(spec["records"], values):
            producer.produce(spec["topic"], partition=r.get("partition", 0), key=decode(r.get("key")), value=value, on_delivery=deliveries.report)
            producer.poll(0)
        deliveries.flush_or_exit(producer)
    print(json.dumps({"offsets": deliveries.offsets, "encoded": [encode(v) for v in values], "payload": [encode(p) for p in payloads]}))


if __name__ == "__main__":
    main()
