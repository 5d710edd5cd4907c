#!/usr/bin/env python3
"""Proves that a reader of the earlier Event schema skips the relationship-chain
and group kinds cleanly (docs/spec/frame-format.md, "Payload kinds and new event
kinds").

The earlier reader is built here, on the official protobuf runtime, from the
current Event with its kinds 20 and above removed: the Event every
implementation read before event.proto gained them (kinds 1 to 5). Every
valid payload vector of Vectors/events/ that holds one of the new kinds is
then read with it, and must

- decode without error,
- have no kind set (the reader sees an event of a kind it does not know,
  which the validator reports as the warning `enum.unknown-kind`),
- keep the whole kind as unknown bytes: re-encoding gives the payload back,
  byte for byte, so a relay built on the earlier schema forwards it intact;

and read with the current schema it must have its kind. Run with the Python
testee's environment (protobuf from PyPI, testees/python/requirements.txt):

    .build/python-testee/bin/python scripts/checks/check_event_compatibility.py
"""
import glob
import json
import os
import sys

sys.dont_write_bytecode = True

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "testees", "python", "generated"))

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory  # noqa: E402

from imcodec.constraints.v1 import constraints_pb2  # noqa: E402
from imcodec.v1 import event_pb2, model_pb2  # noqa: E402

# The kinds Event had before the relationship-chain and group kinds.
EARLIER_KINDS = {1, 2, 3, 4, 5}


def earlier_event_class():
    pool = descriptor_pool.DescriptorPool()
    for module in (descriptor_pb2, constraints_pb2, model_pb2):
        proto = descriptor_pb2.FileDescriptorProto()
        module.DESCRIPTOR.CopyToProto(proto)
        pool.Add(proto)
    current = descriptor_pb2.FileDescriptorProto()
    event_pb2.DESCRIPTOR.CopyToProto(current)
    earlier = descriptor_pb2.FileDescriptorProto(
        name="imcodec/v1/event_earlier.proto", package="imcodec.v1", syntax="proto3",
        dependency=["imcodec/v1/model.proto"])
    event = earlier.message_type.add()
    event.CopyFrom(next(m for m in current.message_type if m.name == "Event"))
    kept = [f for f in event.field if f.number in EARLIER_KINDS]
    assert len(kept) == len(EARLIER_KINDS), "the earlier kinds are no longer in Event"
    del event.field[:]
    event.field.extend(kept)
    pool.Add(earlier)
    return message_factory.MessageFactory(pool).GetPrototype(pool.FindMessageTypeByName("imcodec.v1.Event"))


def main():
    earlier = earlier_event_class()
    new_kinds = {f.name for f in event_pb2.Event.DESCRIPTOR.fields if f.number not in EARLIER_KINDS}
    checked, problems = 0, []
    for path in sorted(glob.glob(os.path.join(ROOT, "Vectors", "events", "*.json"))):
        with open(path, encoding="utf-8") as f:
            cases = json.load(f)["cases"]
        for case in cases:
            if case.get("operation") != "payload" or case.get("result") != "valid" or case.get("kind") != "event":
                continue
            payload = bytes.fromhex(case["expected"]["payloadHex"])
            current = event_pb2.Event.FromString(payload)
            if current.WhichOneof("kind") not in new_kinds:
                continue
            value = earlier.FromString(payload)
            if value.WhichOneof("kind") is not None:
                problems.append(f"{case['id']}: the earlier reader sees kind {value.WhichOneof('kind')}")
            if value.SerializeToString() != payload:
                problems.append(f"{case['id']}: the earlier reader does not keep the kind's bytes")
            checked += 1
    for problem in problems:
        print(problem, file=sys.stderr)
    if checked == 0:
        problems.append("no vector holds a new kind")
        print("no vector holds a new kind", file=sys.stderr)
    print(f"event compatibility: {checked} payloads of {len(new_kinds)} new kinds read by the earlier Event schema: "
          f"{len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
