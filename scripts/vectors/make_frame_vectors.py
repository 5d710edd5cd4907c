#!/usr/bin/env python3
"""Writes the frame vectors: Vectors/frames, Vectors/streaming, the frame files
of Vectors/malformed and the frame files of Vectors/limits.

The frame layout is implemented a second time, in the vectors' common module
(scripts/vectors/common.py), from docs/spec/frame-format.md alone, with nothing but Python's own zlib (raw deflate, windowBits -15),
binascii.crc32, struct and, for zstd bodies, the `zstandard` package from PyPI
(pinned in testees/python/requirements.txt; its own bundled libzstd, not the
system one the Swift library and the C reference link):

- `build_frame` writes a frame field by field, and every field can be made to
  lie (a wrong length, a padded varint, a flipped flag, a bad checksum);
- `decode_frame` applies the reader's checks in the documented order and
  names the first one that fails; it computes the expectation of every
  mutated frame (bit flips, truncations, split streams). It reads deflate in
  stream order and zstd block by block, each compressed block given whole to
  zstandard with no bound on its output, as the document says, so no answer
  depends on how much room a decoder has.

The C reference and the Swift library are checked against these files; they
are not used to make them. Payloads come from common.encode,
and swift-protobuf re-derives them in VectorOracleTests.

Run from anywhere: python3 scripts/vectors/make_frame_vectors.py
"""

import sys

sys.dont_write_bytecode = True  # keep scripts/ free of __pycache__

import base64
import binascii
import gzip
import hashlib
import random
import struct
import zlib

from common import (
    DEFAULT_LIMITS, DICTIONARIES, KINDS, FrameError, VectorFile, build_frame, decode_frame, decode_stream,
    deflate, encode, expect_code, expected_frame, frame_case, hand_zstd, hexs, ld, parse_header, report, varint,
    zstd_compress, zstd_frame_header)


FRAME_DERIVATION = (
    "Built by scripts/vectors/make_frame_vectors.py, a second implementation of docs/spec/frame-format.md using only Python's "
    "zlib (raw deflate), zstandard 0.25.0 from PyPI (zstd bodies), binascii.crc32 and struct. Valid frames are written field by field; malformed ones by "
    "making one field lie; the expected result of every frame is what that script's reader, which applies the "
    "documented checks in the documented order, says (deflate in stream order; zstd header and block headers "
    "walked by the script, each compressed block judged whole by zstandard). Payloads are canonical encodings "
    "from scripts/vectors/common.py, re-derived with swift-protobuf by VectorOracleTests."
)

FLAGS = {
    "Stored": "Compression 0: the body is the payload.",
    "Deflate": "Compression 1: the body is a raw deflate stream of the payload (no zlib or gzip wrapper).",
    "Dictionary": "The frame names a shipped preset dictionary (Schemas/dictionaries/<id>.bin); the deflate stream "
    "is primed with it.",
    "MultiByteVarint": "A header varint of two or more bytes.",
    "NonCanonicalPayload": "The payload decodes but is not canonical; the decoded frame's payload is its canonical "
    "re-encoding.",
    "CheckOrder": "More than one thing is wrong; the documented order of checks decides which code is reported.",
    "Truncated": "The input ends before the frame does.",
    "BadVersion": "The version byte is not 0x01.",
    "BadFlags": "The flags byte names kind 0, compression 3, a reserved bit, or a dictionary on a stored frame.",
    "Zstd": "Compression 2: the body is a magicless zstd frame of the payload. A reader built without zstd answers "
    "frame.zstd-unavailable instead of the expected result.",
    "CorruptZstd": "The body is not one valid magicless zstd frame: a reserved block type or frame header bit, a "
    "frame that ends early, bytes after its last block.",
    "ZstdWindow": "The zstd frame header declares a window larger than 8 MiB (window log 23).",
    "HandWrittenZstd": "The zstd body is written by hand from RFC 8878 (raw and RLE blocks), not by a compressor.",
    "EditedZstd": "The zstd body is zstd's own (zstandard 0.25.0), with one field then changed by hand (RFC 8878).",
    "BadVarint": "A header varint is longer than 5 bytes, above 2^32 - 1, or padded with a trailing 0x80...0x00.",
    "BadDictionary": "The dictionary id is 0 or names no known dictionary, or the dictionary bit is set on a stored "
    "frame.",
    "LyingLength": "The body length or the payload length does not match the body.",
    "ChecksumMismatch": "The CRC-32 does not match the header and payload.",
    "BitFlip": "One bit of a valid frame flipped; the checksum covers the header too, so every flip is caught.",
    "CorruptDeflate": "The body is not a valid raw deflate stream, ends early, or ends before the body does.",
    "Bomb": "A frame that would inflate to far more than its body; rejected from the header alone, before any "
    "allocation.",
    "TrailingBytes": "Bytes follow the frame; a single-frame decoder rejects them.",
    "PayloadError": "The frame is sound but its payload is not; the payload's error code and path are reported.",
    "Limit": "A decoding limit at exactly its value (N, accepted) or one above it (N+1, rejected).",
    "CustomLimits": "The case sets its own decoding limits, passed to the implementation with the request.",
    "DefaultLimits": "The case uses the documented default limits.",
    "SplitChunks": "The stream arrives in chunks split at arbitrary points, inside headers and bodies.",
    "IncompleteTail": "The stream ends inside a frame; the reader reports the complete frames and the tail.",
    "StreamError": "A frame in the stream is broken; the reader reports the frames before it and the error.",
    "RatioCap": "The payload deflates by more than the default maxInflateRatio (250), so a writer stores it: a "
                "compressed frame would be refused by readers with default limits.",
    "EncodePolicy": "The implementation builds the frame; the runner decodes it and checks kind, compression, "
    "dictionary and payload (compressed bytes are not canonical).",
    "EncodeOrder": "encode_frame's own order (docs/spec/testee-protocol.md): what is judged first when a request "
    "breaks two rules, or whether a field is looked at at all.",
}


# ---------------------------------------------------------------------------

MSG_SMALL = encode("Message", {"msgId": "m1", "sender": "alice", "receiver": "bob", "elems": [{"text": {"text": "hi"}}]})
MSG_TEXT = encode("Message", {
    "msgId": "144115233874815003-1700000001-1", "sender": "user_alice", "groupId": "@TGS#2C5SZEAEF",
    "timestamp": "1700000001", "seq": "88",
    "elems": [{"text": {"text": "Lunch at 12:30? The usual place on the corner, the one with the noodles. " * 6}}]})
BATCH = encode("MessageBatch", {"messages": [
    {"msgId": f"144115233874815{n:03d}-1700000{n:03d}-1", "sender": "user_alice", "receiver": "user_bob",
     "timestamp": str(1700000000 + n), "elems": [{"text": {"text": f"message number {n} of the history page"}}]}
    for n in range(12)]})
EVENT = encode("Event", {"recall": {"msgId": "144115233874815003-1700000001-1"}})
EVENT_CONN = encode("Event", {"connection": {"state": "CONNECTION_STATE_FAILED", "code": 6208, "text": "kicked"}})
RANDOM = random.Random(20240601)
NOISE = encode("Message", {"elems": [{"custom": {"data": base64.b64encode(
    bytes(RANDOM.randrange(256) for _ in range(400))).decode()}}]})
assert len(MSG_TEXT) > 256 and len(BATCH) > 256


def write_frame_files():
    written = []

    # -- header fields ------------------------------------------------------------------
    vf = VectorFile("frames", "header", "Frame header fields",
                    "Every header field with valid values: each kind, stored and compressed, 1- to 3-byte varints, "
                    "the empty payload, and every value of the flags byte.", FRAME_DERIVATION, FLAGS)
    for kind, payload in (("message", MSG_SMALL), ("batch", BATCH), ("event", EVENT)):
        frame_case(vf, f"frame.header.{kind}-stored", f"A stored {kind} frame.", build_frame(kind, payload),
                   flags=["Stored"])
        frame_case(vf, f"frame.header.{kind}-deflate", f"A deflated {kind} frame.",
                   build_frame(kind, payload, compress=True), flags=["Deflate"])
        frame_case(vf, f"frame.header.{kind}-empty", f"A stored {kind} frame with the empty payload: 7 bytes in all.",
                   build_frame(kind, b""), flags=["Stored"])
    # The relationship-chain and group kinds of Event (event.proto, kinds 20
    # to 32) travel in event frames like every other kind.
    for label, value in (
            ("friend-list", {"friendList": {"friends": [
                {"identifier": f"user_{i}", "remark": f"同学 {i}", "addSource": "AddSource_Type_iOS",
                 "addTime": str(1700000000 + i)} for i in range(12)]}}),
            ("group-profiles", {"groupProfiles": {"groups": [
                {"group": f"@TGS#2C5SZEAE{i}", "groupName": f"周末羽毛球 {i}", "groupType": "Public",
                 "maxMemberNum": 2000, "memberNum": 100 + i, "addOpt": "GROUP_ADD_OPT_AUTH"} for i in range(8)]}}),
            ("friend-pendency", {"friendPendency": {"response": {"seq": "13", "unreadCnt": "2"}, "items": [
                {"identifier": "user_dave", "addWording": "我是 Dave", "type": "PENDENCY_TYPE_COME_IN"}]}})):
        payload = encode("Event", value)
        frame_case(vf, f"frame.header.event-{label}-stored", f"A stored event frame holding a {label} event "
                   "(a relationship-chain or group kind).", build_frame("event", payload), flags=["Stored"])
        frame_case(vf, f"frame.header.event-{label}-deflate", f"The {label} event deflated.",
                   build_frame("event", payload, compress=True), flags=["Deflate"])
    for size in (127, 128, 16383, 16384):
        length = size - 2 if 1 + len(varint(size - 2)) + size - 2 == size else size - 3
        payload = encode("Message", {"msgId": "x" * length})
        assert len(payload) == size
        frame_case(vf, f"frame.header.body-length-{size}", f"A stored frame of {size} payload bytes: a "
                   f"{len(varint(size))}-byte body length.", build_frame("message", payload),
                   flags=["Stored"] + (["MultiByteVarint"] if size >= 128 else []))
    big = encode("Message", {"elems": [{"text": {"text": "abcdefgh" * 3000}}]})
    frame_case(vf, "frame.header.deflate-3-byte-payload-length",
               f"A deflated payload of {len(big)} bytes: a 3-byte payload length, a 2-byte body length.",
               build_frame("message", big, compress=True), flags=["Deflate", "MultiByteVarint"])
    frame_case(vf, "frame.header.deflate-empty-payload",
               "A deflated empty payload: body 03 00 (an empty final fixed block), payload length 0.",
               build_frame("message", b"", compress=True), flags=["Deflate"])
    frame_case(vf, "frame.header.non-canonical-payload",
               "A stored frame whose payload has its fields in reverse order: decoded frames answer the canonical "
               "payload.", build_frame("message", ld(2, b"s") + ld(1, b"m")), flags=["Stored", "NonCanonicalPayload"],
               canonical=ld(1, b"m") + ld(2, b"s"))
    # cloud_custom_data is bytes (NSData in the SDK): three bytes that are not
    # UTF-8, field 17 written by hand.
    not_utf8 = bytes.fromhex("8a 01 03 ff fe 80")
    frame_case(vf, "frame.header.cloud-custom-data-not-utf8-stored",
               "A stored message frame whose cloud custom data is ff fe 80, not UTF-8: bytes, so the frame decodes "
               "and its payload is kept byte for byte.", build_frame("message", not_utf8), flags=["Stored"])
    frame_case(vf, "frame.header.cloud-custom-data-not-utf8-deflate",
               "The same payload deflated.", build_frame("message", not_utf8, compress=True), flags=["Deflate"])
    # Every value of the flags byte, with a header and body that are right for it.
    for flags_byte in range(256):
        kind, compression, dictionary, reserved = flags_byte & 3, (flags_byte >> 2) & 3, flags_byte & 0x10, flags_byte >> 5
        kind_name = KINDS.get(kind, "message")
        payload = {"message": MSG_TEXT, "batch": BATCH, "event": EVENT_CONN}[kind_name]
        compress = compression in (1, 2)
        dict_id = 1 if dictionary else None
        if dict_id and compress and 1 not in DICTIONARIES:
            continue
        if compress:
            data = build_frame(kind_name, payload, compress=True, zstd=compression == 2,
                               dictionary_id=dict_id if compress else None, flags=flags_byte)
        else:
            data = build_frame(kind_name, payload, flags=flags_byte, dict_varint=varint(1) if dictionary else None)
        problems = [kind == 0, compression == 3, reserved != 0, bool(dictionary) and compression == 0]
        flags = [["Stored", "Deflate", "Zstd"][compression]] if compression < 3 else []
        if any(problems):
            flags.append("BadFlags")
        if sum(problems) > 1:
            flags.append("CheckOrder")
        if dictionary and compress:
            flags.append("Dictionary")
        frame_case(vf, f"frame.header.flags-{flags_byte:02x}",
                   f"Flags byte 0x{flags_byte:02x}: kind {kind}, compression {compression}, dictionary bit "
                   f"{1 if dictionary else 0}, reserved bits {reserved:03b}.", data, flags=flags)
    for version in (0x00, 0x02, 0x10, 0x7F, 0x80, 0xFF):
        frame_case(vf, f"frame.header.version-{version:02x}", f"Version byte 0x{version:02x}.",
                   build_frame("message", MSG_SMALL, version=version), flags=["BadVersion"])
    written.append(vf.write())

    # -- compression -----------------------------------------------------------------
    vf = VectorFile("frames", "compression", "Compression",
                    "Raw deflate bodies of every block type, several levels, multi-block streams, and bodies larger "
                    "than their payload (which a reader accepts, though a writer never makes them).",
                    FRAME_DERIVATION, FLAGS)
    for level in (1, 6, 9):
        frame_case(vf, f"frame.deflate.level-{level}", f"A batch deflated at zlib level {level}.",
                   build_frame("batch", BATCH, compress=True, level=level), flags=["Deflate"])
    frame_case(vf, "frame.deflate.stored-block", "Level 0: one stored deflate block, 5 bytes larger than the payload.",
               build_frame("message", MSG_TEXT, compress=True, level=0), flags=["Deflate"])
    frame_case(vf, "frame.deflate.fixed-huffman", "Z_FIXED strategy: fixed Huffman codes only.",
               build_frame("message", MSG_TEXT, body=deflate(MSG_TEXT, 6, strategy=zlib.Z_FIXED), compress=True),
               flags=["Deflate"])
    frame_case(vf, "frame.deflate.huffman-only", "Z_HUFFMAN_ONLY: no back-references.",
               build_frame("message", MSG_TEXT, body=deflate(MSG_TEXT, 6, strategy=zlib.Z_HUFFMAN_ONLY), compress=True),
               flags=["Deflate"])
    frame_case(vf, "frame.deflate.rle", "Z_RLE: back-references of distance 1 only.",
               build_frame("batch", BATCH, body=deflate(BATCH, 6, strategy=zlib.Z_RLE), compress=True), flags=["Deflate"])
    frame_case(vf, "frame.deflate.full-flush-blocks", "A stream of several blocks with a full flush every 64 bytes.",
               build_frame("batch", BATCH, body=deflate(BATCH, 6, flush_every=64), compress=True), flags=["Deflate"])
    frame_case(vf, "frame.deflate.incompressible", "400 random bytes deflated: the body is larger than the payload.",
               build_frame("message", NOISE, compress=True), flags=["Deflate"])
    frame_case(vf, "frame.deflate.ratio-high", "A payload of 20,000 repeated bytes: a ratio far above 100.",
               build_frame("message", encode("Message", {"msgId": "a" * 20000}), compress=True), flags=["Deflate"])
    frame_case(vf, "frame.deflate.tiny", "A 2-byte payload deflated.",
               build_frame("event", encode("Event", {"recall": {}}), compress=True), flags=["Deflate"])
    written.append(vf.write())

    # -- dictionary --------------------------------------------------------------------
    if 1 in DICTIONARIES:
        shipped = "; ".join(f"dictionary {i}: Schemas/dictionaries/{i}.bin, {len(d)} bytes, SHA-256 "
                            f"{hashlib.sha256(d).hexdigest()}" for i, d in sorted(DICTIONARIES.items()))
        vf = VectorFile("frames", "dictionary", "Preset dictionary",
                        f"Frames whose deflate stream is primed with a shipped preset dictionary ({shipped}).",
                        FRAME_DERIVATION, FLAGS)
        for kind, payload in (("message", MSG_TEXT), ("batch", BATCH), ("event", EVENT_CONN), ("message", MSG_SMALL)):
            cid = f"frame.dictionary.{kind}" + ("-small" if payload is MSG_SMALL else "")
            frame_case(vf, cid, f"A {kind} deflated with dictionary 1.",
                       build_frame(kind, payload, compress=True, dictionary_id=1), flags=["Deflate", "Dictionary"])
        if 2 in DICTIONARIES:
            for kind, payload in (("message", MSG_TEXT), ("batch", BATCH), ("event", EVENT_CONN), ("message", MSG_SMALL)):
                cid = f"frame.dictionary-2.{kind}" + ("-small" if payload is MSG_SMALL else "")
                frame_case(vf, cid, f"A {kind} deflated with dictionary 2.",
                           build_frame(kind, payload, compress=True, dictionary_id=2), flags=["Deflate", "Dictionary"])
            uses_2 = next(p for p in (MSG_SMALL, MSG_TEXT, EVENT_CONN, BATCH)
                          if _needs_dictionary(deflate(p, 6, DICTIONARIES[2]), len(p)))
            mixed = build_frame("message", uses_2, compress=True, dictionary_id=1, body=deflate(uses_2, 6, DICTIONARIES[2]))
            try:
                decode_frame(mixed)
                mixed = None  # it happened to inflate to the right bytes: no case
            except FrameError:
                pass
            if mixed is not None:
                frame_case(vf, "frame.dictionary.names-1-made-with-2",
                           "A stream made with dictionary 2 in a frame that names dictionary 1: it inflates with the "
                           "wrong history, so the inflater or the checksum refuses it.", mixed,
                           flags=["Deflate", "Dictionary", "CorruptDeflate"])
        frame_case(vf, "frame.dictionary.named-but-unused",
                   "The header names dictionary 1 but the stream was made without it: it never refers back into the "
                   "dictionary, so it still inflates.", build_frame("message", MSG_SMALL, compress=True,
                   dictionary_id=1, body=deflate(MSG_SMALL, 6)), flags=["Deflate", "Dictionary"])
        uses = next(p for p in (MSG_SMALL, MSG_TEXT, EVENT_CONN, BATCH)
                    if _needs_dictionary(deflate(p, 6, DICTIONARIES[1]), len(p)))
        frame_case(vf, "frame.dictionary.missing-from-header",
                   "A stream made with dictionary 1 in a frame that names no dictionary: its back-references reach "
                   "before the start of the output, so inflating fails.",
                   build_frame("message", uses, compress=True, body=deflate(uses, 6, DICTIONARIES[1])),
                   flags=["Deflate", "CorruptDeflate"])
        frame_case(vf, "frame.dictionary.id-0", "Dictionary id 0 (ids start at 1).",
                   build_frame("message", MSG_TEXT, compress=True, dictionary_id=1, dict_varint=varint(0)),
                   flags=["Deflate", "BadDictionary"])
        unknown = max(DICTIONARIES) + 1
        frame_case(vf, f"frame.dictionary.unknown-id-{unknown}", f"Dictionary id {unknown}, which no implementation "
                   "ships.", build_frame("message", MSG_TEXT, compress=True, dictionary_id=1,
                                         dict_varint=varint(unknown)),
                   flags=["Deflate", "BadDictionary"])
        frame_case(vf, "frame.dictionary.unknown-id-large", "Dictionary id 2^32 - 1.",
                   build_frame("message", MSG_TEXT, compress=True, dictionary_id=1, dict_varint=varint(0xFFFFFFFF)),
                   flags=["Deflate", "BadDictionary", "MultiByteVarint"])
        frame_case(vf, "frame.dictionary.on-stored-frame", "The dictionary bit (with id 1) on a stored frame.",
                   build_frame("message", MSG_SMALL, flags=0x11, dict_varint=varint(1)),
                   flags=["Stored", "BadDictionary"])
        frame_case(vf, "frame.dictionary.on-stored-frame-id-missing",
                   "The dictionary bit on a stored frame, the input ending before the id: the id is read before it "
                   "is judged, so frame.truncated (found by FuzzFrame: one implementation judged the bit first).",
                   bytes([0x01, 0x11]), flags=["Stored", "BadDictionary", "Truncated", "CheckOrder"])
        frame_case(vf, "frame.dictionary.id-padded", "Dictionary id 1 written as 81 00: a padded varint.",
                   build_frame("message", MSG_TEXT, compress=True, dictionary_id=1, dict_varint=b"\x81\x00"),
                   flags=["Deflate", "BadVarint"])
        written.append(vf.write())
    else:
        print("warning: Schemas/dictionaries/1.bin is missing; no dictionary vectors written")

    written.append(write_zstd_file())

    # -- integrity ---------------------------------------------------------------------
    vf = VectorFile("frames", "integrity", "Integrity: the CRC-32",
                    "The checksum covers the header bytes before it and the payload. Every single-bit flip of a "
                    "stored frame is caught, as some check of the header or as frame.checksum.", FRAME_DERIVATION, FLAGS)
    base = build_frame("message", MSG_SMALL)
    for index in range(len(base)):
        for bit in (0, 7):
            data = bytearray(base)
            data[index] ^= 1 << bit
            frame_case(vf, f"frame.integrity.flip-byte-{index:02d}-bit-{bit}",
                       f"Bit {bit} of byte {index} of a stored {len(base)}-byte message frame flipped.",
                       bytes(data), flags=["BitFlip"])
    compressed = build_frame("batch", BATCH, compress=True)
    header_length = parse_header(compressed, DEFAULT_LIMITS)["header_length"]
    for index in list(range(header_length)) + [header_length + 3, len(compressed) // 2, len(compressed) - 1]:
        data = bytearray(compressed)
        data[index] ^= 0x02
        frame_case(vf, f"frame.integrity.deflate-flip-byte-{index:03d}",
                   f"Bit 1 of byte {index} of a deflated batch frame flipped.", bytes(data), flags=["BitFlip", "Deflate"])
    frame_case(vf, "frame.integrity.checksum-zero", "The checksum field is 0.",
               build_frame("message", MSG_SMALL, checksum=0), flags=["ChecksumMismatch"])
    frame_case(vf, "frame.integrity.checksum-payload-only",
               "The checksum covers only the payload, not the header: wrong.",
               build_frame("message", MSG_SMALL, checksum=binascii.crc32(MSG_SMALL)), flags=["ChecksumMismatch"])
    frame_case(vf, "frame.integrity.checksum-of-body",
               "A deflated frame whose checksum covers the compressed body instead of the payload: wrong.",
               build_frame("message", MSG_TEXT, compress=True, crc_payload=deflate(MSG_TEXT)),
               flags=["ChecksumMismatch", "Deflate"])
    right = binascii.crc32(bytes([1, 1]) + varint(len(MSG_SMALL)) + MSG_SMALL)
    frame_case(vf, "frame.integrity.checksum-big-endian", "The right CRC-32 written big-endian.",
               build_frame("message", MSG_SMALL, checksum=struct.unpack("<I", struct.pack(">I", right))[0]),
               flags=["ChecksumMismatch"])
    frame_case(vf, "frame.integrity.payload-error-utf8",
               "A sound frame whose payload has invalid UTF-8 in msgId: the payload's code and path.",
               build_frame("message", ld(1, b"\xff")), flags=["PayloadError"], payload_error=("payload.utf8", "msgId"))
    frame_case(vf, "frame.integrity.payload-error-truncated",
               "A sound deflated frame whose payload is cut inside the elems field.",
               build_frame("message", MSG_SMALL[:-2], compress=True), flags=["PayloadError", "Deflate"],
               payload_error=("payload.truncated", "elems[0]"))
    frame_case(vf, "frame.integrity.payload-error-event-tag",
               "A sound event frame whose payload has wire type 7.", build_frame("event", b"\x0f"),
               flags=["PayloadError"], payload_error=("payload.tag", ""))
    written.append(vf.write())
    return written

MAX_BLOCK = 128 * 1024
LUNCH = encode("Message", {"msgId": "m1", "sender": "alice", "receiver": "bob", "elems": [{"text": {"text":
                "Lunch at 12:30? " * 20 + "The usual place on the corner, the one with the noodles. " * 4}}]})
BIG_TEXT = encode("Message", {"elems": [{"text": {"text": " ".join(
    f"line {n}: {random.Random(n).choice(['lunch', 'meeting', 'deploy', 'review'])} at {n % 24}:{n % 60:02d}"
    for n in range(12000))}}]})
assert len(BIG_TEXT) > 200_000


def write_zstd_file():
    vf = VectorFile("frames", "zstd", "zstd bodies (compression 2)",
                    "Frames whose body is a magicless zstd frame without the content size, checksum and dictionary "
                    "id fields (docs/spec/frame-format.md, 'zstd bodies'): each kind, several levels, every shipped "
                    "dictionary, multi-block bodies, and bodies written by hand from RFC 8878.", FRAME_DERIVATION,
                    FLAGS)
    for kind, payload in (("message", MSG_TEXT), ("batch", BATCH), ("event", EVENT_CONN), ("message", MSG_SMALL)):
        cid = f"frame.zstd.{kind}" + ("-small" if payload is MSG_SMALL else "")
        frame_case(vf, cid, f"A {kind} compressed with zstd at level 3.", build_frame(kind, payload, zstd=True),
                   flags=["Zstd"])
    for level in (1, 9, 19):
        frame_case(vf, f"frame.zstd.level-{level}", f"A batch compressed with zstd at level {level}.",
                   build_frame("batch", BATCH, zstd=True, level=level), flags=["Zstd"])
    for dictionary_id in sorted(DICTIONARIES):
        for kind, payload in (("message", MSG_TEXT), ("message", MSG_SMALL), ("batch", BATCH)):
            cid = f"frame.zstd.dictionary-{dictionary_id}.{kind}" + ("-small" if payload is MSG_SMALL else "")
            kind_of_dictionary = "a zstd dictionary (ZDICT)" if DICTIONARIES[dictionary_id][:4] == \
                b"\x37\xa4\x30\xec" else "raw content"
            frame_case(vf, cid, f"A {kind} compressed with zstd and dictionary {dictionary_id} ({kind_of_dictionary}).",
                       build_frame(kind, payload, zstd=True, dictionary_id=dictionary_id),
                       flags=["Zstd", "Dictionary"])
    frame_case(vf, "frame.zstd.multi-block", f"A {len(BIG_TEXT)}-byte message: a zstd frame of several blocks "
               "(blocks hold at most 128 KiB).", build_frame("message", BIG_TEXT, zstd=True, level=1),
               flags=["Zstd", "MultiByteVarint"])
    frame_case(vf, "frame.zstd.empty-payload", "zstd of the empty payload: a frame header and one empty last block.",
               build_frame("message", b"", zstd=True), flags=["Zstd"])
    frame_case(vf, "frame.zstd.incompressible", "400 random bytes through zstd: the body is larger than the payload, "
               "which a reader accepts.", build_frame("message", NOISE, zstd=True), flags=["Zstd"])
    frame_case(vf, "frame.zstd.hand-raw-block", "A body written by hand: header descriptor 00, window descriptor 00 "
               "(1 KiB), one last raw block holding the payload.",
               build_frame("message", MSG_SMALL, zstd=True, body=hand_zstd([(0, True, MSG_SMALL, 0)])),
               flags=["Zstd", "HandWrittenZstd"])
    rle = encode("Message", {"msgId": "a" * 200})
    head, run = rle[:-200], rle[-200:]
    frame_case(vf, "frame.zstd.hand-raw-and-rle-blocks", "By hand: a raw block with the payload up to the msgId "
               "text, then an RLE block of 200 'a'.",
               build_frame("message", rle, zstd=True, body=hand_zstd([(0, False, head, 0), (1, True, b"a", 200)])),
               flags=["Zstd", "HandWrittenZstd"])
    frame_case(vf, "frame.zstd.hand-window-8-mib", "By hand: window descriptor 68 (window log 23, 8 MiB), the "
               "largest a reader accepts.",
               build_frame("message", MSG_SMALL, zstd=True, body=hand_zstd([(0, True, MSG_SMALL, 0)], window=0x68)),
               flags=["Zstd", "HandWrittenZstd"])
    frame_case(vf, "frame.zstd.hand-empty-blocks", "By hand: two empty raw blocks, then the payload in a last raw "
               "block.", build_frame("message", MSG_SMALL, zstd=True, body=hand_zstd(
                   [(0, False, b"", 0), (0, False, b"", 0), (0, True, MSG_SMALL, 0)])),
               flags=["Zstd", "HandWrittenZstd"])
    frame_case(vf, "frame.zstd.dictionary-named-but-unused", "The header names dictionary 4 but the body is a raw "
               "block: it never refers to the dictionary, so it decodes.",
               build_frame("message", MSG_SMALL, zstd=True, dictionary_id=4 if 4 in DICTIONARIES else 1,
                           body=hand_zstd([(0, True, MSG_SMALL, 0)])), flags=["Zstd", "Dictionary", "HandWrittenZstd"])

    # -- broken zstd bodies: every one written by hand, so its fault is the format's, not one decoder's --
    def broken(cid, comment, body, payload, payload_length=None, flags=(), dictionary_id=None, edited=False):
        data = build_frame("message", payload, zstd=True, body=body, dictionary_id=dictionary_id,
                           payload_len_varint=None if payload_length is None else varint(payload_length))
        frame_case(vf, cid, comment, data, flags=["Zstd", "EditedZstd" if edited else "HandWrittenZstd"] + list(flags))

    broken("frame.zstd.window-16-mib", "Window descriptor 70: window log 24 (16 MiB), past the 8 MiB readers accept.",
           hand_zstd([(0, True, MSG_SMALL, 0)], window=0x70), MSG_SMALL, flags=["ZstdWindow"])
    broken("frame.zstd.window-largest", "Window descriptor ff: window log 41 and the largest mantissa.",
           hand_zstd([(0, True, MSG_SMALL, 0)], window=0xFF), MSG_SMALL, flags=["ZstdWindow"])
    broken("frame.zstd.reserved-block-type", "A last block of the reserved type 3.",
           hand_zstd([(3, True, MSG_SMALL, 0)]), MSG_SMALL, flags=["CorruptZstd"])
    broken("frame.zstd.no-last-block", "One raw block without the last-block bit, and nothing after it: the frame "
           "ends early.", hand_zstd([(0, False, MSG_SMALL, 0)]), MSG_SMALL, flags=["CorruptZstd"])
    broken("frame.zstd.block-cut", "A raw block header declaring 5 bytes more than the body holds.",
           hand_zstd([(0, True, MSG_SMALL, 0)])[:2] + struct.pack("<I", 1 | (len(MSG_SMALL) + 5) << 3)[:3] + MSG_SMALL,
           MSG_SMALL, flags=["CorruptZstd"])
    broken("frame.zstd.header-only", "A body of the frame header alone (descriptor and window), no block.",
           bytes([0x00, 0x00]), b"", flags=["CorruptZstd"])
    broken("frame.zstd.bytes-after-last-block", "One byte after the last block: the zstd frame ends before the "
           "body does.", hand_zstd([(0, True, MSG_SMALL, 0)]) + b"\x00", MSG_SMALL, flags=["CorruptZstd"])
    broken("frame.zstd.second-frame-after", "A second (empty) zstd frame after the first: one body is one zstd "
           "frame.", hand_zstd([(0, True, MSG_SMALL, 0)]) + hand_zstd([(0, True, b"", 0)]), MSG_SMALL,
           flags=["CorruptZstd"])
    broken("frame.zstd.reserved-header-bit", "Frame header descriptor 08: the reserved bit 3 set.",
           bytes([0x08]) + hand_zstd([(0, True, MSG_SMALL, 0)])[1:], MSG_SMALL, flags=["CorruptZstd"])
    broken("frame.zstd.with-magic", "A standard zstd frame (magic 28 b5 2f fd first): a magicless reader reads the "
           "magic's first byte as a descriptor with the reserved bit set.",
           b"\x28\xb5\x2f\xfd" + hand_zstd([(0, True, MSG_SMALL, 0)]), MSG_SMALL, flags=["CorruptZstd"])
    broken("frame.zstd.long", "A raw block one byte longer than the declared payload length.",
           hand_zstd([(0, True, MSG_SMALL + b"\x00", 0)]), MSG_SMALL, payload_length=len(MSG_SMALL),
           flags=["LyingLength"])
    broken("frame.zstd.short", "A raw block one byte shorter than the declared payload length.",
           hand_zstd([(0, True, MSG_SMALL[:-1], 0)]), MSG_SMALL, payload_length=len(MSG_SMALL), flags=["LyingLength"])
    broken("frame.zstd.bomb-stops-at-declared", "A 6-byte body whose RLE block makes 100,000 bytes, declaring "
           "1,000 (within the ratio limit): decoding stops at 1,000 (frame.payload-length), never making the rest.",
           hand_zstd([(1, True, b"a", 100000)], window=0x38), b"", payload_length=1000, flags=["LyingLength", "Bomb"])
    broken("frame.zstd.bomb-declared", "The same 6-byte body declaring all 100,000 bytes: 16,667 times the body, "
           "refused from the header (limit.inflate-ratio) before anything is allocated.",
           hand_zstd([(1, True, b"a", 100000)], window=0x38), b"", payload_length=100000, flags=["Bomb"])
    broken("frame.zstd.long-then-corrupt", "A raw block that overflows the declared payload, then a reserved "
           "block: the overflow is found first.",
           hand_zstd([(0, False, MSG_SMALL + b"\x00", 0), (3, True, b"x", 0)]), MSG_SMALL,
           payload_length=len(MSG_SMALL), flags=["LyingLength", "CorruptZstd", "CheckOrder"])
    broken("frame.zstd.short-and-ends-early", "A raw block shorter than declared and no last block: ending early "
           "is frame.zstd even though the output is short too.", hand_zstd([(0, False, MSG_SMALL[:-1], 0)]),
           MSG_SMALL, payload_length=len(MSG_SMALL), flags=["LyingLength", "CorruptZstd", "CheckOrder"])
    broken("frame.zstd.window-before-blocks", "A window past 8 MiB and a reserved block: the window is judged "
           "first, from the frame header.", hand_zstd([(3, True, MSG_SMALL, 0)], window=0x70), MSG_SMALL,
           flags=["ZstdWindow", "CorruptZstd", "CheckOrder"])
    # A body made with dictionary 4 in a frame that names none: its first block refers into the dictionary, so
    # every zstd release refuses it. (Named 3 instead, zstd releases differ: libzstd 1.5.4 decodes such a block
    # to other bytes, 1.5.7 refuses it, so that reading is left without a vector.)
    if 4 in DICTIONARIES:
        frame_case(vf, "frame.zstd.dictionary-missing-from-header", "A body made with dictionary 4 in a frame that "
                   "names no dictionary.", build_frame("message", MSG_TEXT, zstd=True,
                                                       body=zstd_compress(MSG_TEXT, 3, DICTIONARIES[4])),
                   flags=["Zstd", "CorruptZstd"])
    write_zstd_header_cases(vf, broken)
    write_zstd_block_cases(vf, broken)
    frame_case(vf, "frame.zstd.checksum-of-body", "A zstd frame whose checksum covers the compressed body instead of "
               "the payload: wrong.", build_frame("message", MSG_TEXT, zstd=True, crc_payload=zstd_compress(MSG_TEXT)),
               flags=["Zstd", "ChecksumMismatch"])
    frame_case(vf, "frame.zstd.compression-3", "Compression 3 stays undefined.",
               build_frame("message", MSG_TEXT, zstd=True, flags=0x0D), flags=["BadFlags"])
    frame_case(vf, "frame.zstd.payload-error", "A sound zstd frame whose payload is cut inside the elems field.",
               build_frame("message", MSG_SMALL[:-2], zstd=True), flags=["Zstd", "PayloadError"],
               payload_error=("payload.truncated", "elems[0]"))
    return vf.write()



def write_zstd_header_cases(vf, broken):
    """The optional fields of the zstd frame header (RFC 8878, 3.1.1.1): each written by zstd itself (zstandard
    0.25.0 asked to write it), then made to lie by hand; judged in the documented order: the window, then the
    dictionary id, then the content size, all before any block."""
    for cid, comment, options in (
            ("single-segment", "zstd with the content size on: a single-segment frame, whose window is its content "
             "size (RFC 8878, 3.1.1.1.2).", {"content_size": True}),
            ("content-checksum", "zstd with the content checksum on: 4 bytes of XXH64 after the last block, which "
             "a reader checks.", {"checksum": True}),
            ("dictionary-id", "zstd with dictionary 4 and the dictionary id on: the zstd header carries the id "
             "written inside dictionary 4, the one the frame names.", {"dictionary_id": True})):
        dictionary_id = 4 if options.get("dictionary_id") else None
        body = zstd_compress(MSG_TEXT, 3, DICTIONARIES.get(dictionary_id), **options)
        frame_case(vf, f"frame.zstd.{cid}", comment, build_frame("message", MSG_TEXT, zstd=True, body=body,
                                                                  dictionary_id=dictionary_id),
                   flags=["Zstd"] + (["Dictionary"] if dictionary_id else []))
    windowed = zstd_compress(BATCH, 3, content_size=True, window_log=10)
    assert len(BATCH) > 1024 and not zstd_frame_header(windowed)["single_segment"]
    frame_case(vf, "frame.zstd.content-size", "zstd with the content size on and a 1 KiB window, smaller than the "
               "payload: a window descriptor and a content size equal to the payload length.",
               build_frame("batch", BATCH, zstd=True, body=windowed), flags=["Zstd"])
    checked = zstd_compress(MSG_TEXT, 3, checksum=True)
    wrong = checked[:-1] + bytes([checked[-1] ^ 0x01])
    frame_case(vf, "frame.zstd.content-checksum-wrong", "The content checksum with one bit flipped: frame.zstd, "
               "from zstd's own check (a reader that left the checksum to the frame's CRC-32 would accept it).",
               build_frame("message", MSG_TEXT, zstd=True, body=wrong), flags=["Zstd", "CorruptZstd"])
    frame_case(vf, "frame.zstd.content-checksum-cut", "The content checksum's last two bytes missing: the body "
               "ends inside the zstd frame.", build_frame("message", MSG_TEXT, zstd=True, body=checked[:-2]),
               flags=["Zstd", "CorruptZstd"])

    raw = [(0, True, MSG_SMALL, 0)]
    carried = struct.unpack("<I", DICTIONARIES[4][4:8])[0] if 4 in DICTIONARIES else 1
    broken("frame.zstd.content-size-larger", "A content size 1,000 bytes larger than the payload length: "
           "frame.payload-length from the zstd header, before any block.",
           hand_zstd(raw, content_size=len(MSG_SMALL) + 1000), MSG_SMALL, flags=["LyingLength"])
    broken("frame.zstd.content-size-smaller", "A content size one byte smaller than the payload length, which the "
           "blocks fill: frame.payload-length from the zstd header (not frame.zstd, the answer zstd gives once the "
           "blocks have made more than the content size).",
           hand_zstd(raw, content_size=len(MSG_SMALL) - 1, single_segment=True), MSG_SMALL, flags=["LyingLength"])
    finding = bytes.fromhex("010906e807d201048a403803350c61")
    frame_case(vf, "frame.zstd.content-size-before-cut-block", "A 6-byte body: a zstd header with a 128 KiB window "
               "and a content size of 13,571, larger than the declared 1,000, then 2 bytes of a block header. The "
               "content size is judged with the zstd header, before the cut block: frame.payload-length, not "
               "frame.zstd.", finding, flags=["Zstd", "HandWrittenZstd", "LyingLength", "CorruptZstd", "CheckOrder"])
    broken("frame.zstd.window-before-content-size", "A window past 8 MiB and a content size larger than the payload "
           "length: the window is judged first (frame.zstd-window), though libzstd's streaming decoder with a "
           "stable output buffer refuses the content size first.",
           hand_zstd(raw, window=0x70, content_size=len(MSG_SMALL) + 1000), MSG_SMALL,
           flags=["ZstdWindow", "LyingLength", "CheckOrder"])
    broken("frame.zstd.single-segment-window-past-8-mib", "A single-segment frame whose content size, its window, "
           "is 9 MiB: frame.zstd-window, judged before the content size (which is not the payload length either).",
           hand_zstd(raw, content_size=9 << 20, single_segment=True), MSG_SMALL,
           flags=["ZstdWindow", "LyingLength", "CheckOrder"])
    big_run = 9 * (1 << 20) - 5
    big = encode("Message", {"msgId": "a" * big_run})
    assert len(big) == 9 << 20 and big[5:6] == b"a"
    runs = [(1, False, b"a", min(MAX_BLOCK, big_run - n)) for n in range(0, big_run, MAX_BLOCK)]
    runs[-1] = runs[-1][:1] + (True,) + runs[-1][2:]
    data = build_frame("message", big, zstd=True,
                       body=hand_zstd([(0, False, big[:5], 0)] + runs, content_size=len(big), single_segment=True))
    frame_case(vf, "frame.zstd.single-segment-9-mib", "A single-segment frame of a 9 MiB payload (its msgId, in RLE "
               "blocks of 128 KiB), with its true content size: the window is the content size, 9 MiB, past the "
               "8 MiB a reader accepts, so frame.zstd-window. The ratio limit is raised so that the header's sizes "
               "pass.", data, flags=["Zstd", "HandWrittenZstd", "ZstdWindow", "CustomLimits"],
               limits={"maxInflateRatio": 40000})
    broken("frame.zstd.dictionary-id-wrong", "The frame names dictionary 4 and the zstd header carries another "
           "dictionary id: frame.zstd.", hand_zstd(raw, dictionary_id=carried ^ 1), MSG_SMALL, dictionary_id=4,
           flags=["Dictionary", "CorruptZstd"])
    broken("frame.zstd.dictionary-id-without-dictionary", "The frame names no dictionary and the zstd header "
           "carries dictionary 4's id: frame.zstd (the frame's header names the dictionary; the zstd header may "
           "only agree with it).", hand_zstd(raw, dictionary_id=carried), MSG_SMALL, flags=["CorruptZstd"])
    broken("frame.zstd.dictionary-id-raw-dictionary", "The frame names dictionary 1, raw content that carries no "
           "id, and the zstd header carries dictionary 4's: frame.zstd.", hand_zstd(raw, dictionary_id=carried),
           MSG_SMALL, dictionary_id=1, flags=["Dictionary", "CorruptZstd"])
    broken("frame.zstd.window-before-dictionary-id", "A window past 8 MiB and a wrong dictionary id: the window "
           "first, frame.zstd-window (libzstd's decoder refuses the dictionary id first).",
           hand_zstd(raw, window=0x70, dictionary_id=carried ^ 1), MSG_SMALL, dictionary_id=4,
           flags=["Dictionary", "ZstdWindow", "CorruptZstd", "CheckOrder"])
    broken("frame.zstd.dictionary-id-before-content-size", "A wrong dictionary id and a content size larger than "
           "the payload length: the dictionary id first, frame.zstd.",
           hand_zstd(raw, dictionary_id=carried ^ 1, content_size=len(MSG_SMALL) + 1000), MSG_SMALL,
           dictionary_id=4, flags=["Dictionary", "CorruptZstd", "LyingLength", "CheckOrder"])


def write_zstd_block_cases(vf, broken):
    """Blocks past Block_Maximum_Size, the smaller of the window and 128 KiB (RFC 8878, 3.1.1.2.4), and compressed
    blocks judged whole: a corrupt one is frame.zstd whatever it would have written, a sound one that passes the
    payload length is frame.payload-length."""
    wide = encode("Message", {"msgId": "x" * 1022})
    assert len(wide) == 1025
    broken("frame.zstd.raw-block-past-window", "A 1 KiB window and one raw block of 1,025 bytes, the payload: a "
           "block past its maximum is frame.zstd, judged from its header (libzstd decoding a whole frame in one "
           "pass does not check, and would accept it).", hand_zstd([(0, True, wide, 0)]), wide,
           flags=["CorruptZstd"])
    run = encode("Message", {"msgId": "a" * 1500})
    head = run[:-1500]
    broken("frame.zstd.rle-block-past-window", "A 1 KiB window, a raw block with the start of the payload and an "
           "RLE block of 1,500 'a': an RLE block's size is the bytes it makes, past the 1 KiB maximum, so "
           "frame.zstd, though it would make exactly the payload.",
           hand_zstd([(0, False, head, 0), (1, True, b"a", 1500)]), run, flags=["CorruptZstd"])
    broken("frame.zstd.rle-block-past-window-and-payload", "The same blocks with a payload length of 100: the block "
           "is past its maximum and would pass the payload length; its header is judged first, frame.zstd (a "
           "reader that only counted its output would say frame.payload-length).",
           hand_zstd([(0, False, head, 0), (1, True, b"a", 1500)]), run, payload_length=100,
           flags=["CorruptZstd", "LyingLength", "CheckOrder"])
    huge = encode("Message", {"msgId": "a" * (MAX_BLOCK + 1)})
    front = huge[:-(MAX_BLOCK + 1)]
    data = build_frame("message", huge, zstd=True, body=hand_zstd(
        [(0, False, front, 0), (1, True, b"a", MAX_BLOCK + 1)], window=0x68))
    frame_case(vf, "frame.zstd.rle-block-past-128-kib", "An 8 MiB window and an RLE block of 128 KiB + 1 bytes: "
               "no block is larger than 128 KiB, whatever the window, so frame.zstd. The ratio limit is raised so "
               "that the header's sizes pass.", data, flags=["Zstd", "HandWrittenZstd", "CorruptZstd", "CustomLimits"],
               limits={"maxInflateRatio": 20000})
    # A compressed block whose raw literals section claims more bytes than the block holds, and more than the
    # payload length: a reader that decodes into exactly the payload length hears "destination too small" from
    # libzstd, one with room to spare "corruption detected"; the block is corrupt, so frame.zstd.
    body = zstd_compress(LUNCH, 3)
    header = zstd_frame_header(body)
    block = int.from_bytes(body[header["size"]:header["size"] + 3], "little")
    literals = header["size"] + 3
    assert block >> 1 & 3 == 2 and body[literals] & 0x0F == 0x04, "a compressed block with 2-byte raw literals"
    claimed = 1000
    assert len(LUNCH) < claimed < header["window"] and claimed > block >> 3
    lying = body[:literals] + bytes([(claimed & 0x0F) << 4 | 0x04, claimed >> 4]) + body[literals + 2:]
    broken("frame.zstd.corrupt-block-past-payload", f"A compressed block whose raw literals section claims "
           f"{claimed:,} bytes: more than the {len(LUNCH)}-byte payload and more than the block holds. A compressed "
           "block is judged whole, with room for a whole block: it is corrupt, frame.zstd, whatever it would have "
           "written; never frame.payload-length, the answer of a reader that gives zstd exactly the payload length "
           "and hears 'destination too small'.", lying, LUNCH, flags=["CorruptZstd", "LyingLength", "CheckOrder"],
           edited=True)
    broken("frame.zstd.sound-block-past-payload", "A sound compressed block of the whole payload, declared 17 bytes "
           "shorter: the block decodes, and its output passes the payload length, frame.payload-length.",
           body, LUNCH, payload_length=len(LUNCH) - 17, flags=["LyingLength"], edited=True)
    sound = body[:header["size"]] + bytes([body[header["size"]] & 0xFE]) + body[header["size"] + 1:]
    broken("frame.zstd.sound-block-past-payload-then-corrupt", "The same sound block, no longer last, then a block "
           "of the reserved type: the first block passes the payload length before the second is read, "
           "frame.payload-length.", sound + struct.pack("<I", 1 | 3 << 1)[:3], LUNCH,
           payload_length=len(LUNCH) - 17, flags=["LyingLength", "CorruptZstd", "CheckOrder"], edited=True)


def _needs_dictionary(body, length):
    try:
        zlib.decompressobj(-15).decompress(body, length)
        return False
    except zlib.error:
        return True


def write_malformed_frame_files():
    written = []

    # -- truncation ---------------------------------------------------------------------
    vf = VectorFile("malformed", "frame-truncation", "Truncated frames",
                    "Every strict prefix of valid frames, cut inside each header field and the body: always "
                    "frame.truncated for a single-frame decoder.", FRAME_DERIVATION, FLAGS)
    frames = [("stored", build_frame("event", EVENT), ["Stored"]),
              ("deflate", build_frame("message", MSG_TEXT, compress=True), ["Deflate"])]
    if 1 in DICTIONARIES:
        frames.append(("dictionary", build_frame("event", EVENT_CONN, compress=True, dictionary_id=1),
                       ["Deflate", "Dictionary"]))
    frames.append(("long-header", build_frame("batch", BATCH, compress=True), ["Deflate"]))
    for name, data, flags in frames:
        header_length = parse_header(data, DEFAULT_LIMITS)["header_length"]
        cuts = list(range(0, header_length + 3)) + [len(data) // 2, len(data) - 1]
        for n in sorted(set(c for c in cuts if c < len(data))):
            expect_code(data[:n], "frame.truncated")
            where = "in the header" if n < header_length else "in the body"
            frame_case(vf, f"frame.truncated.{name}-{n:03d}", f"The first {n} of {len(data)} bytes ({where}).",
                       data[:n], flags=flags + ["Truncated"])
    written.append(vf.write())

    # -- header varints ------------------------------------------------------------------
    vf = VectorFile("malformed", "frame-varints", "Malformed header varints",
                    "Header varints are at most 5 bytes, at most 2^32 - 1, and minimal (docs/spec/frame-format.md).",
                    FRAME_DERIVATION, FLAGS)
    body_len = len(MSG_SMALL)
    variants = {
        "padded-2": bytes([body_len | 0x80, 0x00]),
        "padded-5": bytes([body_len | 0x80, 0x80, 0x80, 0x80, 0x00]),
        "six-bytes": bytes([body_len | 0x80, 0x80, 0x80, 0x80, 0x80, 0x00]),
        "above-2-32": bytes([0xFF, 0xFF, 0xFF, 0xFF, 0x1F]),
        "exactly-2-32": bytes([0x80, 0x80, 0x80, 0x80, 0x10]),
    }
    for name, raw in variants.items():
        frame_case(vf, f"frame.varint.body-length-{name}", f"Body length written as {raw.hex()}.",
                   build_frame("message", MSG_SMALL, body_len_varint=raw), flags=["BadVarint"])
    payload_len = len(MSG_TEXT)
    low, high = payload_len & 0x7F, payload_len >> 7
    for name, raw in {"padded-3": bytes([low | 0x80, high | 0x80, 0x00]),
                      "six-bytes": bytes([low | 0x80, high | 0x80, 0x80, 0x80, 0x80, 0x00]),
                      "above-2-32": bytes([0x80, 0x80, 0x80, 0x80, 0x7F])}.items():
        frame_case(vf, f"frame.varint.payload-length-{name}", f"Payload length written as {raw.hex()}.",
                   build_frame("message", MSG_TEXT, compress=True, payload_len_varint=raw),
                   flags=["BadVarint", "Deflate"])
    frame_case(vf, "frame.varint.max-body-length-over-limit",
               "Body length 2^32 - 1 (a valid varint): above the 4 MiB frame limit, rejected before the body is read.",
               build_frame("message", MSG_SMALL, body_len_varint=varint(0xFFFFFFFF)), flags=["Bomb", "DefaultLimits"])
    written.append(vf.write())

    # -- lengths that lie ---------------------------------------------------------------
    vf = VectorFile("malformed", "frame-lengths", "Lengths that lie and trailing bytes",
                    "Body and payload lengths that do not match the body, and bytes after a frame.", FRAME_DERIVATION,
                    FLAGS)
    n = len(MSG_SMALL)
    frame_case(vf, "frame.length.body-one-longer", "The body length says one byte more than there is.",
               build_frame("message", MSG_SMALL, body_len_varint=varint(n + 1)), flags=["LyingLength"])
    frame_case(vf, "frame.length.body-much-longer", "The body length says 4,000 bytes; the frame is 40.",
               build_frame("message", MSG_SMALL, body_len_varint=varint(4000)), flags=["LyingLength"])
    frame_case(vf, "frame.length.body-one-shorter",
               "The body length says one byte less: the payload is cut, so the checksum (over the full payload) "
               "fails before the trailing byte is looked at.",
               build_frame("message", MSG_SMALL, body_len_varint=varint(n - 1)), flags=["LyingLength", "CheckOrder"])
    frame_case(vf, "frame.length.body-one-shorter-checksum-matches",
               "The body length says one byte less and the checksum matches the shorter payload: the last byte "
               "is trailing. (The shorter payload itself would be a truncated message.)",
               build_frame("message", MSG_SMALL, body_len_varint=varint(n - 1), crc_payload=MSG_SMALL[:-1]),
               flags=["LyingLength", "TrailingBytes"])
    frame_case(vf, "frame.length.body-zero",
               "A body length of 0 with the checksum of the empty payload and the real payload after it: trailing.",
               build_frame("message", MSG_SMALL, body_len_varint=varint(0), crc_payload=b""),
               flags=["LyingLength", "TrailingBytes"])
    body = deflate(MSG_TEXT)
    m = len(MSG_TEXT)
    frame_case(vf, "frame.length.payload-one-more", "The payload length says one byte more than the stream makes.",
               build_frame("message", MSG_TEXT, compress=True, payload_len_varint=varint(m + 1)),
               flags=["LyingLength", "Deflate"])
    frame_case(vf, "frame.length.payload-one-less",
               "The payload length says one byte less: the stream wants to write past the buffer.",
               build_frame("message", MSG_TEXT, compress=True, payload_len_varint=varint(m - 1)),
               flags=["LyingLength", "Deflate"])
    frame_case(vf, "frame.length.payload-zero", "The payload length says 0 for a non-empty stream.",
               build_frame("message", MSG_TEXT, compress=True, payload_len_varint=varint(0)),
               flags=["LyingLength", "Deflate"])
    frame_case(vf, "frame.length.payload-half", "The payload length says half the real size.",
               build_frame("message", MSG_TEXT, compress=True, payload_len_varint=varint(m // 2)),
               flags=["LyingLength", "Deflate"])
    frame_case(vf, "frame.length.payload-double", "The payload length says twice the real size.",
               build_frame("message", MSG_TEXT, compress=True, payload_len_varint=varint(m * 2)),
               flags=["LyingLength", "Deflate"])
    good = build_frame("message", MSG_SMALL)
    frame_case(vf, "frame.trailing.one-zero-byte", "A valid frame followed by one 0x00 byte.", good + b"\x00",
               flags=["TrailingBytes"])
    frame_case(vf, "frame.trailing.second-frame", "Two valid frames: a single-frame decoder rejects the second.",
               good + build_frame("event", EVENT), flags=["TrailingBytes"])
    frame_case(vf, "frame.trailing.deflate-frame-then-garbage", "A valid deflated frame followed by 3 bytes.",
               build_frame("message", MSG_TEXT, compress=True) + b"abc", flags=["TrailingBytes", "Deflate"])
    frame_case(vf, "frame.trailing.after-bad-checksum",
               "A frame with a wrong checksum and a trailing byte: the checksum is checked first.",
               build_frame("message", MSG_SMALL, checksum=1) + b"\x00", flags=["ChecksumMismatch", "CheckOrder"])
    written.append(vf.write())

    # -- corrupt deflate and bombs ------------------------------------------------------------
    vf = VectorFile("malformed", "frame-deflate", "Corrupt deflate streams and bombs",
                    "Bodies that are not raw deflate, streams that end early or before the body does, zlib and gzip "
                    "wrappers, and decompression bombs stopped by the header checks or by the payload length.",
                    FRAME_DERIVATION, FLAGS)

    def corrupt(cid, comment, body, payload_length, flags=()):
        data = build_frame("message", MSG_TEXT, compress=True, body=body, payload_len_varint=varint(payload_length))
        frame_case(vf, cid, comment, data, flags=["Deflate", "CorruptDeflate"] + list(flags))

    good_body = deflate(MSG_TEXT)
    corrupt("frame.deflate.block-type-3", "The first block has type 3 (reserved): 07 00.", b"\x07\x00" + good_body, m)
    corrupt("frame.deflate.stored-len-mismatch", "A stored block whose NLEN is not the complement of LEN.",
            b"\x01\x05\x00\x00\x00hello", m)
    corrupt("frame.deflate.distance-too-far", "A stream whose first symbol refers back into a preset dictionary the "
            "frame does not name: a distance before the start of the output.",
            deflate(b"hello imcodec world" * 2, 6, b"hello imcodec world"), m)
    corrupt("frame.deflate.ends-early", "The stream cut in half (the body length matches the cut).",
            good_body[: len(good_body) // 2], m)
    corrupt("frame.deflate.missing-final-block", "A stream flushed (Z_SYNC_FLUSH) but never finished.",
            _sync_flushed(MSG_TEXT), m)
    corrupt("frame.deflate.ends-before-body", "A complete stream followed by 2 more body bytes.",
            good_body + b"\x00\x00", m)
    corrupt("frame.deflate.zlib-wrapper", "A zlib stream (78 9c header, Adler-32 trailer) instead of raw deflate.",
            zlib.compress(MSG_TEXT), m)
    corrupt("frame.deflate.gzip-wrapper", "A gzip member instead of raw deflate.",
            gzip.compress(MSG_TEXT, mtime=0), m)
    corrupt("frame.deflate.empty-body", "A compressed frame with an empty body and payload length 0: no final block.",
            b"", 0)
    # Bombs
    zeros = b"\x00" * (1 << 20)
    bomb_payload = ld(1, zeros)
    bomb = deflate(bomb_payload, 9)
    frame_case(vf, "frame.bomb.ratio-real", f"1 MiB of zeros in a msgId, deflated to {len(bomb)} bytes: a ratio over "
               "1,000, above the default 250.", build_frame("message", bomb_payload, compress=True, body=bomb),
               flags=["Deflate", "Bomb", "DefaultLimits"])
    frame_case(vf, "frame.bomb.ratio-declared", "A 100-byte body declaring a 1,000,000-byte payload.",
               build_frame("message", b"", compress=True, body=b"\x00" * 100, payload_len_varint=varint(1_000_000),
                           checksum=0), flags=["Deflate", "Bomb", "DefaultLimits"])
    size_bomb_payload = ld(1, b"\x00" * (17 << 20))
    size_bomb = deflate(size_bomb_payload, 9)
    frame_case(vf, "frame.bomb.inflated-size-real", f"17 MiB of zeros deflated to {len(size_bomb)} bytes: above the "
               "16 MiB inflated-size limit (checked before the ratio, which is also too high).",
               build_frame("message", size_bomb_payload, compress=True, body=size_bomb),
               flags=["Deflate", "Bomb", "DefaultLimits", "CheckOrder"])
    frame_case(vf, "frame.bomb.inflated-size-declared", "A payload length of 2^32 - 1 declared by a 4-byte body.",
               build_frame("message", b"", compress=True, body=b"\x03\x00\x00\x00",
                           payload_len_varint=varint(0xFFFFFFFF), checksum=0),
               flags=["Deflate", "Bomb", "DefaultLimits", "CheckOrder"])
    frame_case(vf, "frame.bomb.lying-payload-length", "1 MiB of zeros whose header declares a payload of 1,000 bytes "
               "(ratio allowed): inflating stops when the 1,000-byte buffer is full, and the stream wants more.",
               build_frame("message", bomb_payload, compress=True, body=bomb, payload_len_varint=varint(1000)),
               flags=["Deflate", "Bomb", "LyingLength", "DefaultLimits"])
    frame_case(vf, "frame.bomb.frame-size-declared", "A stored frame declaring a 64 MiB body, with 10 bytes present: "
               "rejected before the body is awaited.",
               build_frame("message", b"", body=b"\x00" * 10, body_len_varint=varint(64 << 20), checksum=0),
               flags=["Bomb", "DefaultLimits", "CheckOrder"])
    written.append(vf.write())
    return written


def _sync_flushed(payload):
    c = zlib.compressobj(6, zlib.DEFLATED, -15)
    return c.compress(payload) + c.flush(zlib.Z_SYNC_FLUSH)


# ---------------------------------------------------------------------------
# Frame limits (N and N + 1)
# ---------------------------------------------------------------------------


def write_frame_limit_file():
    vf = VectorFile("limits", "frame-limits", "Frame decoding limits at N and N+1",
                    "maxFrameBytes, maxInflatedBytes and maxInflateRatio (docs/spec/frame-format.md, 'Limits and their "
                    "defaults'): a frame exactly at each limit is accepted, one byte (or one ratio step) above is "
                    "rejected. At the defaults the frames declare the sizes in their header and hold no body, so the "
                    "accepted ones end as frame.truncated (the limit check passed) and the rejected ones never reach "
                    "the body check.", FRAME_DERIVATION, FLAGS)
    # Custom limits with whole frames.
    payload = encode("Message", {"msgId": "x" * 62})
    assert len(payload) == 64
    for limit, result in ((64, "n"), (63, "n-plus-1")):
        frame_case(vf, f"limit.frame-size.custom-{result}", f"A 64-byte stored body with maxFrameBytes {limit}.",
                   build_frame("message", payload), flags=["Limit", "CustomLimits", "Stored"],
                   limits={"maxFrameBytes": limit})
    text = encode("Message", {"msgId": "y" * 1000})
    body = deflate(text, 9)
    for limit, result in ((len(text), "n"), (len(text) - 1, "n-plus-1")):
        frame_case(vf, f"limit.inflated-size.custom-{result}",
                   f"A {len(text)}-byte payload deflated to {len(body)} bytes, maxInflatedBytes {limit}.",
                   build_frame("message", text, compress=True, body=body), flags=["Limit", "CustomLimits", "Deflate"],
                   limits={"maxInflatedBytes": limit})
    ratio_n = -(-len(text) // len(body))  # the smallest ratio that admits the frame
    for limit, result in ((ratio_n, "n"), (ratio_n - 1, "n-plus-1")):
        frame_case(vf, f"limit.inflate-ratio.custom-{result}",
                   f"{len(text)} payload bytes from {len(body)} body bytes with maxInflateRatio {limit} "
                   f"(admits at most {limit * len(body)}).",
                   build_frame("message", text, compress=True, body=body), flags=["Limit", "CustomLimits", "Deflate"],
                   limits={"maxInflateRatio": limit})
    # Default limits, from the header alone.
    mib4, mib16 = 4 * 1024 * 1024, 16 * 1024 * 1024
    for size, result in ((mib4, "n"), (mib4 + 1, "n-plus-1")):
        data = build_frame("message", b"", body=b"", body_len_varint=varint(size), checksum=0)
        frame_case(vf, f"limit.frame-size.default-{result}", f"A stored frame declaring a body of {size} bytes "
                   "and holding none.", data, flags=["Limit", "DefaultLimits", "Truncated" if result == "n" else "Bomb"])
    body_needed = mib16 // 250 + 1  # 67,109 bytes admit 16,777,250 >= 16 MiB
    for size, result in ((mib16, "n"), (mib16 + 1, "n-plus-1")):
        data = build_frame("message", b"", compress=True, body=b"", body_len_varint=varint(body_needed),
                           payload_len_varint=varint(size), checksum=0)
        frame_case(vf, f"limit.inflated-size.default-{result}", f"A deflated frame declaring a {size}-byte payload "
                   f"from a {body_needed}-byte body, holding none of it.", data,
                   flags=["Limit", "DefaultLimits", "Truncated" if result == "n" else "Bomb"])
    for size, result in ((1000 * 250, "n"), (1000 * 250 + 1, "n-plus-1")):
        data = build_frame("message", b"", compress=True, body=b"", body_len_varint=varint(1000),
                           payload_len_varint=varint(size), checksum=0)
        frame_case(vf, f"limit.inflate-ratio.default-{result}", f"A 1,000-byte body declaring {size} payload bytes "
                   "(ratio 250 is the default limit), holding none of it.", data,
                   flags=["Limit", "DefaultLimits", "Truncated" if result == "n" else "Bomb"])
    frame_case(vf, "limit.order.frame-size-before-inflated-size",
               "Body and payload both over their limits: the frame size is checked first.",
               build_frame("message", b"", compress=True, body=b"", body_len_varint=varint(mib4 + 1),
                           payload_len_varint=varint(mib16 + 1), checksum=0),
               flags=["Limit", "DefaultLimits", "CheckOrder"])
    return [vf.write()]


# ---------------------------------------------------------------------------
# Streams
# ---------------------------------------------------------------------------


def stream_case(vf, cid, comment, chunks, flags=(), limits=None, payload_error=None):
    data = b"".join(chunks)
    frames, error, tail = decode_stream(data, limits)
    expected_frames = [expected_frame(KINDS[h["kind"]], p, h["compression"], h["dictionary_id"]) for h, p in frames]
    expected = {"frames": expected_frames}
    if payload_error:
        # The frame at index payload_error[0] is sound but its payload is not.
        expected["frames"] = expected_frames[: payload_error[0]]
        error = payload_error[1]
        tail = False
        path = payload_error[2]
    else:
        path = ""
    if error:
        expected["error"] = {"code": error, "path": path}
    expected["incompleteTail"] = tail
    case = {"id": cid, "comment": comment, "flags": list(flags), "operation": "decode-stream",
            "result": "invalid" if error else "valid"}
    if limits:
        case["limits"] = limits
    case["input"] = {"chunksHex": [hexs(c) for c in chunks]}
    case["expected"] = expected
    return vf.add(case)


def write_stream_file():
    vf = VectorFile("streaming", "chunks", "Streams split across chunks",
                    "A streaming reader fed the same stream in different chunks yields the same frames: split at "
                    "every byte, byte by byte, with empty chunks, ending inside a frame, and broken mid-stream.",
                    FRAME_DERIVATION.replace("decode_frame", "decode_stream"), FLAGS)
    f1 = build_frame("message", MSG_SMALL)
    f2 = build_frame("event", EVENT, compress=True)
    f3 = build_frame("batch", encode("MessageBatch", {"messages": [{"msgId": "a"}, {"msgId": "b"}]}))
    stream = f1 + f2 + f3
    stream_case(vf, "stream.one-chunk", "Three frames (stored message, deflated event, stored batch) in one chunk.",
                [stream], flags=["Stored", "Deflate"])
    for split in range(1, len(stream)):
        stream_case(vf, f"stream.split-at-{split:03d}", f"The three-frame stream split in two at byte {split} of "
                    f"{len(stream)}.", [stream[:split], stream[split:]], flags=["SplitChunks"])
    stream_case(vf, "stream.byte-by-byte", "The three-frame stream one byte per chunk.",
                [stream[i : i + 1] for i in range(len(stream))], flags=["SplitChunks"])
    stream_case(vf, "stream.empty-chunks", "The stream with empty chunks before, between and after its pieces.",
                [b"", stream[:5], b"", b"", stream[5:30], b"", stream[30:], b""], flags=["SplitChunks"])
    stream_case(vf, "stream.no-chunks", "No chunks at all: no frames, no tail.", [])
    stream_case(vf, "stream.only-empty-chunk", "One empty chunk.", [b""])
    bounds = [len(f1), len(f1) + len(f2)]
    stream_case(vf, "stream.split-at-frame-boundaries", "One chunk per frame.",
                [f1, f2, f3], flags=["SplitChunks"])
    stream_case(vf, "stream.three-way-inside-headers", "Split inside the second and third frames' headers.",
                [stream[: bounds[0] + 3], stream[bounds[0] + 3 : bounds[1] + 2], stream[bounds[1] + 2 :]],
                flags=["SplitChunks"])
    for cut in (1, 2, 4, len(f1) - 1, len(f1) + 3, len(stream) - 1):
        stream_case(vf, f"stream.tail-after-{cut:03d}", f"The stream ends after {cut} of {len(stream)} bytes, inside a "
                    "frame.", [stream[:cut]], flags=["IncompleteTail"])
    stream_case(vf, "stream.tail-split", "The stream ends inside the third frame, fed in 7-byte chunks.",
                [stream[i : min(i + 7, len(stream) - 3)] for i in range(0, len(stream) - 3, 7)],
                flags=["IncompleteTail", "SplitChunks"])
    bad2 = bytearray(f2)
    bad2[-1] ^= 0xFF
    stream_case(vf, "stream.error-second-frame-corrupt", "The second frame's body is corrupt: the first frame, then "
                "the error.", [f1 + bytes(bad2) + f3], flags=["StreamError"])
    stream_case(vf, "stream.error-bad-checksum-split", "The third frame has a wrong checksum, split across chunks.",
                [f1 + f2 + f3[:4], f3[4:6], bytes([f3[6] ^ 1]) + f3[7:]], flags=["StreamError", "SplitChunks"])
    stream_case(vf, "stream.error-version-after-frames", "Two good frames, then a byte 0x02 where a version should be, "
                "then a flags byte.", [f1 + f2 + b"\x02\x01"], flags=["StreamError", "BadVersion"])
    stream_case(vf, "stream.error-reserved-bits", "A good frame, then a header with a reserved flag bit.",
                [f1, b"\x01\x21\x00"], flags=["StreamError", "BadFlags"])
    tiny = build_frame("event", encode("Event", {"recall": {"msgId": "m1"}}))
    stream_case(vf, "stream.error-frame-size-limit", "A frame with a 6-byte body, then the header of a frame whose "
                f"{len(MSG_SMALL)}-byte body is over a 16-byte frame limit: the error comes from the header, before "
                "the body arrives.", [tiny, build_frame("message", MSG_SMALL)[:7]],
                flags=["StreamError", "CustomLimits", "Limit"], limits={"maxFrameBytes": 16})
    stream_case(vf, "stream.error-payload", "A sound second frame whose payload has invalid UTF-8: the first frame, "
                "then the payload error with its path.",
                [f1 + build_frame("message", ld(2, b"\xc3\x28")) + f3], flags=["StreamError", "PayloadError"],
                payload_error=(1, "payload.utf8", "sender"))
    if 1 in DICTIONARIES:
        d = build_frame("message", MSG_TEXT, compress=True, dictionary_id=1)
        stream_case(vf, "stream.dictionary-frames", "Two dictionary frames and a stored one, split every 5 bytes.",
                    [(d + f1 + d)[i : i + 5] for i in range(0, len(d + f1 + d), 5)],
                    flags=["SplitChunks", "Dictionary", "Deflate"])
    many = b"".join(build_frame("message", encode("Message", {"msgId": f"m{i}"})) for i in range(50))
    stream_case(vf, "stream.fifty-frames", "Fifty small frames in 13-byte chunks.",
                [many[i : i + 13] for i in range(0, len(many), 13)], flags=["SplitChunks"])
    return [vf.write()]


# ---------------------------------------------------------------------------
# Encoding
# ---------------------------------------------------------------------------


def write_encode_file():
    vf = VectorFile("frames", "encode", "Building frames under a compression policy",
                    "The implementation builds a frame; the runner decodes it and checks the kind, whether it was "
                    "compressed, the dictionary and the payload. A writer compresses only a payload of at least the "
                    "threshold whose deflated body is smaller (docs/spec/frame-format.md, 'Compression'); the payloads here "
                    "are chosen so every deflate implementation agrees on 'smaller': highly repetitive text, or "
                    "random bytes.",
                    "Policies and payloads chosen by hand in scripts/vectors/make_frame_vectors.py; whether a payload "
                    "compresses is checked there with Python's zlib at levels 1 and 9, with a wide margin.", FLAGS)

    def case(cid, comment, kind, payload, policy, compression, dictionary_id=0, flags=()):
        if compression == 1:
            for level in (1, 9):
                assert len(deflate(payload, level, DICTIONARIES.get(dictionary_id or None))) < 0.8 * len(payload)
        if compression == 2:
            for level in (1, 19):
                assert len(zstd_compress(payload, level, DICTIONARIES.get(dictionary_id or None))) < 0.8 * len(payload)
        vf.add({"id": cid, "comment": comment, "flags": ["EncodePolicy"] + list(flags), "operation": "encode-frame",
                "result": "valid", "kind": kind, "input": {"payloadHex": hexs(payload), "policy": policy},
                "expected": {"frame": expected_frame(kind, payload, compression, dictionary_id)}})

    for kind, payload in (("message", MSG_TEXT), ("batch", BATCH), ("event", EVENT)):
        case(f"encode.{kind}-never", f"A {kind} with compression 0 (never): stored.", kind, payload,
             {"compression": 0}, 0)
    case("encode.compress-above-threshold", "Compression 1, threshold 256, a 600-byte repetitive message: deflated.",
         "message", MSG_TEXT, {"compression": 1, "threshold": 256}, 1, flags=["Deflate"])
    case("encode.batch-threshold-0", "Compression 1, threshold 0, a repetitive batch: deflated.", "batch", BATCH,
         {"compression": 1, "threshold": 0}, 1, flags=["Deflate"])
    case("encode.below-threshold", "Compression 1, threshold 10,000, a 600-byte message: stored.", "message",
         MSG_TEXT, {"compression": 1, "threshold": 10000}, 0)
    case("encode.threshold-equal", "Threshold equal to the payload size: the payload is at least the threshold, so it "
         "is deflated.", "message", MSG_TEXT, {"compression": 1, "threshold": len(MSG_TEXT)}, 1, flags=["Deflate"])
    case("encode.threshold-one-above", "Threshold one above the payload size: stored.", "message", MSG_TEXT,
         {"compression": 1, "threshold": len(MSG_TEXT) + 1}, 0)
    case("encode.incompressible", "Compression 1, threshold 0, 400 random bytes: deflating does not make it smaller, "
         "so it is stored.", "message", NOISE, {"compression": 1, "threshold": 0}, 0)
    assert len(deflate(NOISE, 9)) >= len(NOISE) and len(deflate(NOISE, 1)) >= len(NOISE)
    case("encode.empty-payload", "Compression 1, threshold 0, the empty payload: stored (deflate cannot make 0 bytes "
         "smaller).", "message", b"", {"compression": 1, "threshold": 0}, 0)
    case("encode.two-byte-payload", "Compression 1, threshold 0, a 2-byte payload: stored.", "event",
         encode("Event", {"recall": {}}), {"compression": 1, "threshold": 0}, 0)
    for level in (1, 9):
        case(f"encode.level-{level}", f"Compression 1 at level {level}: deflated.", "batch", BATCH,
             {"compression": 1, "threshold": 0, "level": level}, 1, flags=["Deflate"])
    repetitive = encode("Message", {"sender": "a", "receiver": "b", "elems": [{"text": {"text": "x" * 64000}}]})
    for level in (6, 9):
        assert len(repetitive) > 2 * 250 * len(deflate(repetitive, level))
    case("encode.past-the-default-ratio", "Compression 1 at level 9, threshold 0, 64,000 repeated letters: deflate "
         "shrinks it about 800 times, past the default maxInflateRatio of 250 that readers enforce "
         "(limit.inflate-ratio), so the writer stores it.",
         "message", repetitive, {"compression": 1, "threshold": 0, "level": 9}, 0, flags=["RatioCap"])
    if 1 in DICTIONARIES:
        case("encode.dictionary", "Compression 1 with dictionary 1: deflated, the header names dictionary 1.",
             "message", MSG_TEXT, {"compression": 1, "threshold": 0, "dictionaryId": 1}, 1, 1,
             flags=["Deflate", "Dictionary"])
        case("encode.dictionary-below-threshold", "Dictionary 1 but a payload under the threshold: stored, and a "
             "stored frame names no dictionary.", "message", MSG_SMALL,
             {"compression": 1, "threshold": 1000, "dictionaryId": 1}, 0, 0, flags=["Dictionary"])
    if 4 in DICTIONARIES:
        for dictionary_id in (3, 4):
            case(f"encode.zstd-dictionary-{dictionary_id}", f"Compression 2 (zstd) with dictionary {dictionary_id}: "
                 f"compressed, the header names dictionary {dictionary_id}.", "message", MSG_TEXT,
                 {"compression": 2, "threshold": 0, "dictionaryId": dictionary_id}, 2, dictionary_id,
                 flags=["Zstd", "Dictionary"])
    case("encode.zstd", "Compression 2 (zstd), threshold 256, a 600-byte repetitive message: compressed.",
         "message", MSG_TEXT, {"compression": 2, "threshold": 256}, 2, flags=["Zstd"])
    for level in (1, 19):
        case(f"encode.zstd-level-{level}", f"Compression 2 at level {level}: compressed.", "batch", BATCH,
             {"compression": 2, "threshold": 0, "level": level}, 2, flags=["Zstd"])
    case("encode.zstd-below-threshold", "Compression 2, threshold 10,000, a 600-byte message: stored.", "message",
         MSG_TEXT, {"compression": 2, "threshold": 10000}, 0)
    case("encode.zstd-incompressible", "Compression 2, threshold 0, 400 random bytes: zstd does not make it smaller, "
         "so it is stored.", "message", NOISE, {"compression": 2, "threshold": 0}, 0)
    assert all(len(zstd_compress(NOISE, level)) >= len(NOISE) for level in (1, 3, 19))
    case("encode.zstd-empty-payload", "Compression 2, threshold 0, the empty payload: stored.", "message", b"",
         {"compression": 2, "threshold": 0}, 0)
    zstd_repetitive = encode("Message", {"sender": "a", "receiver": "b", "elems": [{"text": {"text": "x" * 64000}}]})
    for level in (1, 3, 19):
        assert len(zstd_repetitive) > 2 * 250 * len(zstd_compress(zstd_repetitive, level))
    case("encode.zstd-past-the-default-ratio", "Compression 2, threshold 0, 64,000 repeated letters: zstd shrinks "
         "it past the default maxInflateRatio of 250, so the writer stores it.", "message", zstd_repetitive,
         {"compression": 2, "threshold": 0}, 0, flags=["RatioCap", "Zstd"])
    if 2 in DICTIONARIES:
        case("encode.dictionary-2", "Compression 1 with dictionary 2: deflated, the header names dictionary 2.",
             "message", MSG_TEXT, {"compression": 1, "threshold": 0, "dictionaryId": 2}, 1, 2,
             flags=["Deflate", "Dictionary"])
    case("encode.stored-ignores-level", "Compression 0 with level 25, past every compressor's levels: nothing is "
         "compressed, so the level is not looked at, and the payload is stored (a writer that judged the level "
         "first would answer a runtime error).", "message", MSG_TEXT, {"compression": 0, "level": 25}, 0,
         flags=["EncodeOrder"])
    write_encode_order_cases(vf)
    return [vf.write()]


def write_encode_order_cases(vf):
    """encode_frame's order (docs/spec/testee-protocol.md, "Encoding frames: the order of checks"): the dictionary
    id before anything about the payload, then the frame of the bytes as given, then the payload decoded with the
    limits, each refused with the code and path its reader would give."""
    def refused(cid, comment, payload, policy, code, path="", limits=None):
        case = {"id": cid, "comment": comment, "flags": ["EncodePolicy", "EncodeOrder"], "operation": "encode-frame",
                "result": "invalid", "kind": "message"}
        if limits:
            case["limits"] = limits
            case["flags"].append("CustomLimits")
        case["input"] = {"payloadHex": hexs(payload), "policy": policy}
        case["expected"] = {"error": {"code": code, "path": path}}
        vf.add(case)

    unknown = 0xFFFFFFFF
    assert unknown not in DICTIONARIES
    cut = MSG_SMALL[:-2]
    expect_payload_error = ("payload.truncated", "elems[0]")
    refused("encode.unknown-dictionary-before-frame-size", "Dictionary 2^32 - 1, which no implementation ships, "
            "and maxFrameBytes 20, which the stored frame passes: the dictionary id is judged first, "
            "frame.dictionary, not limit.frame-size.", MSG_TEXT,
            {"compression": 1, "threshold": 0, "dictionaryId": unknown}, "frame.dictionary",
            limits={"maxFrameBytes": 20})
    refused("encode.unknown-dictionary-before-payload", "An unknown dictionary id and a payload that does not "
            "decode: frame.dictionary, before the payload is looked at.", cut,
            {"compression": 1, "threshold": 0, "dictionaryId": unknown}, "frame.dictionary")
    refused("encode.unknown-dictionary-stored", "Compression 0 and an unknown dictionary id: frame.dictionary, "
            "whatever the compression.", MSG_SMALL, {"compression": 0, "dictionaryId": unknown}, "frame.dictionary")
    refused("encode.zstd-unknown-dictionary", "Compression 2 and an unknown dictionary id: frame.dictionary, before "
            "zstd is asked for, so a writer without zstd answers the same (not frame.zstd-unavailable).", MSG_TEXT,
            {"compression": 2, "threshold": 0, "dictionaryId": unknown}, "frame.dictionary")
    refused("encode.payload-does-not-decode", "A payload cut inside elems: refused with what a reader of the frame "
            "would answer, payload.truncated at elems[0].", cut, {"compression": 0}, *expect_payload_error)
    refused("encode.payload-does-not-decode-deflate", "The same payload with compression 1: the same answer, "
            "whether or not it would have been deflated.", cut, {"compression": 1, "threshold": 0},
            *expect_payload_error)
    refused("encode.frame-size-before-payload-error", "The same payload with maxFrameBytes 10: the frame of the "
            "bytes as given is judged first, limit.frame-size, then the payload.", cut, {"compression": 0},
            "limit.frame-size", limits={"maxFrameBytes": 10})



def main():
    written = []
    written += write_frame_files()
    written += write_malformed_frame_files()
    written += write_frame_limit_file()
    written += write_stream_file()
    written += write_encode_file()
    report(written)


if __name__ == "__main__":
    main()
