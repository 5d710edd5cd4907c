#!/usr/bin/env python3
"""Regenerates every generated file of Vectors/ (all but README.md):
payloads, frames, streams, decoding limits, validation and the Tencent REST
form.

    python3 scripts/vectors/make_vectors.py

Set IMCODEC_VECTORS_DIR to write somewhere else (VectorFileTests does, to
prove the committed files are exactly what the scripts make).
"""

import sys

sys.dont_write_bytecode = True  # keep scripts/ free of __pycache__

import make_frame_vectors
import make_limit_vectors
import make_payload_vectors
import make_precedence_vectors
import make_rest_vectors
import make_validation_vectors

if __name__ == "__main__":
    make_payload_vectors.main()
    make_frame_vectors.main()
    make_limit_vectors.main()
    make_validation_vectors.main()
    make_rest_vectors.main()
    make_precedence_vectors.main()
