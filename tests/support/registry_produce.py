"""Encodes records with Confluent's own Python serializers (confluent_kafka.schema_registry:
Avro through fastavro, Protobuf through Google's protobuf runtime, JSON Schema through
jsonschema), registering their schemas in the registry as a real producer does, and produces
them with librdkafka. What Sluice decodes was therefore framed and encoded by code that shares
nothing with it.

stdin: {"brokers", "registry", "topic", "workdir", "produce": bool (default true; false: encode and
register only), "records": [{"partition", "key", "value"}]}
where key and value are each null, {"raw": base64} (bytes as given) or
{"format": "avro"|"json"|"protobuf", "schema": text, "data": object, "message": name (protobuf)}.
stdout: {"offsets": [[partition, offset]], "encoded": [{"key": base64|null, "value": base64|null}]}
"""
import base64
import importlib
import json
import os
import subprocess
import sys

from confluent_kafka import Producer
from confluent_kafka.schema_registry import SchemaRegistryClient
from confluent_kafka.schema_registry.avro import AvroSerializer
from confluent_kafka.schema_registry.json_schema import JSONSerializer
from confluent_kafka.schema_registry.protobuf import ProtobufSerializer
from confluent_kafka.serialization import MessageField, SerializationContext
from google.protobuf.json_format import ParseDict


def protobuf_class(workdir, schema, message):
    """Compiles the .proto text with protoc and returns the generated message class."""
    name = "m_%d" % (abs(hash(schema)) % 10**12)
    proto = os.path.join(workdir, name + ".proto")
    if not os.path.exists(os.path.join(workdir, name + "_pb2.py")):
        with open(proto, "w") as f:
            f.write(schema)
        import grpc_tools
        include = os.path.join(os.path.dirname(grpc_tools.__file__), "_proto")
        subprocess.run([sys.executable, "-m", "grpc_tools.protoc", "-I", workdir, "-I", include, "--python_out", workdir, proto], check=True)
    if workdir not in sys.path:
        sys.path.insert(0, workdir)
    module = importlib.import_module(name + "_pb2")
    cls = module
    for part in message.split("."):
        cls = getattr(cls, part)
    return cls


def main():
    spec = json.load(sys.stdin)
    # httpx waits for ever without a timeout: a registry that stops answering would hang the test
    # until its hook times out with nothing to say. 15 s a request; the client retries timeouts.
    client = SchemaRegistryClient({"url": spec["registry"], "timeout": 15})
    topic = spec["topic"]
    serializers = {}

    def encode(attribute, field):
        if attribute is None:
            return None
        if "raw" in attribute:
            return base64.b64decode(attribute["raw"])
        fmt = attribute["format"]
        cache_key = (fmt, attribute["schema"], attribute.get("message"), field)
        if cache_key not in serializers:
            if fmt == "avro":
                serializers[cache_key] = (AvroSerializer(client, attribute["schema"]), None)
            elif fmt == "json":
                serializers[cache_key] = (JSONSerializer(attribute["schema"], client), None)
            else:
                cls = protobuf_class(spec["workdir"], attribute["schema"], attribute["message"])
                serializers[cache_key] = (ProtobufSerializer(cls, client, {"use.deprecated.format": False}), cls)
        serializer, cls = serializers[cache_key]
        data = ParseDict(attribute["data"], cls()) if cls else attribute["data"]
        return serializer(data, SerializationContext(topic, field))

    producer = Producer({"bootstrap.servers": spec["brokers"], "enable.idempotence": True, "linger.ms": 5})
    offsets = []
    encoded = []
    errors = []

    def delivered(err, msg):
        if err is not None:
            errors.append(str(err))
        else:
            offsets.append([msg.partition(), msg.offset()])

    for record in spec["records"]:
        key = encode(record.get("key"), MessageField.KEY)
        value = encode(record.get("value"), MessageField.VALUE)
        encoded.append({"key": None if key is None else base64.b64encode(key).decode(), "value": None if value is None else base64.b64encode(value).decode()})
        if spec.get("produce", True) is False:
            continue
        producer.produce(topic, value=value, key=key, partition=record.get("partition", 0), on_delivery=delivered)
    remaining = producer.flush(30)
    if errors or remaining:
        sys.stderr.write("delivery failed: %s (%d not flushed)\n" % (errors, remaining))
        sys.exit(1)
    json.dump({"offsets": offsets, "encoded": encoded}, sys.stdout)


main()
