#!/usr/bin/env python3
"""Proves that readers of the earlier Event schemas skip the kinds added after
them cleanly (docs/spec/frame-format.md, "Payload kinds and new event kinds").

Each earlier reader is built here, on the official protobuf runtime, from the
current Event with the kinds it did not have removed: the Event of kinds 1 to
5, before the read-member page and the relationship-chain and group kinds;
and the Event of kinds 1 to 6 and 20 to 32, before the conversations (7) and
the relationship-chain deletion and notifications (33 to 41). For each
reader, every valid payload vector of Vectors/events/ that holds a kind it
does not know is read with it, and must

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
from imcodec.v1 import event_pb2, group_pb2, model_pb2, relationship_pb2  # noqa: E402

# The kinds of each earlier Event schema, by what came after it.
EARLIER_SCHEMAS = {
    "the read-member page, relationship-chain and group kinds": {1, 2, 3, 4, 5},
    "the conversation and relationship-chain notification kinds": {1, 2, 3, 4, 5, 6} | set(range(20, 33)),
}


def earlier_event_class(earlier_kinds):
    pool = descriptor_pool.DescriptorPool()
    for module in (descriptor_pb2, constraints_pb2, model_pb2, relationship_pb2, group_pb2):
        proto = descriptor_pb2.FileDescriptorProto()
        module.DESCRIPTOR.CopyToProto(proto)
        pool.Add(proto)
    current = descriptor_pb2.FileDescriptorProto()
    event_pb2.DESCRIPTOR.CopyToProto(current)
    earlier = descriptor_pb2.FileDescriptorProto(
        name="imcodec/v1/event_earlier.proto", package="imcodec.v1", syntax="proto3",
        dependency=["imcodec/v1/model.proto", "imcodec/v1/relationship.proto", "imcodec/v1/group.proto"])
    event = earlier.message_type.add()
    event.CopyFrom(next(m for m in current.message_type if m.name == "Event"))
    kept = [f for f in event.field if f.number in earlier_kinds]
    assert len(kept) == len(earlier_kinds), "the earlier kinds are no longer in Event"
    del event.field[:]
    event.field.extend(kept)
    pool.Add(earlier)
    return message_factory.MessageFactory(pool).GetPrototype(pool.FindMessageTypeByName("imcodec.v1.Event"))


def check(before, earlier_kinds):
    """Reads every payload of a kind `earlier_kinds` lacks with the earlier reader; returns the problems."""
    earlier = earlier_event_class(earlier_kinds)
    new_kinds = {f.name for f in event_pb2.Event.DESCRIPTOR.fields if f.number not in earlier_kinds}
    checked, problems, seen = 0, [], set()
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
            seen.add(current.WhichOneof("kind"))
            value = earlier.FromString(payload)
            if value.WhichOneof("kind") is not None:
                problems.append(f"{case['id']}: the earlier reader sees kind {value.WhichOneof('kind')}")
            if value.SerializeToString() != payload:
                problems.append(f"{case['id']}: the earlier reader does not keep the kind's bytes")
            checked += 1
    problems += [f"no valid payload vector holds the new kind {kind}" for kind in sorted(new_kinds - seen)]
    for problem in problems:
        print(problem, file=sys.stderr)
    print(f"event compatibility: {checked} payloads of {len(new_kinds)} new kinds read by the Event before {before} "
          f"(kinds {describe(earlier_kinds)}): {len(problems)} problems")
    return problems


def describe(kinds):
    """Kinds as ranges: 1-6, 20-32."""
    ordered, runs = sorted(kinds), []
    for number in ordered:
        if runs and number == runs[-1][1] + 1:
            runs[-1][1] = number
        else:
            runs.append([number, number])
    return ", ".join(f"{a}-{b}" if a != b else f"{a}" for a, b in runs)


def main():
    problems = []
    for before, earlier_kinds in EARLIER_SCHEMAS.items():
        problems += check(before, earlier_kinds)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
