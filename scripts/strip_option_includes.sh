#!/usr/bin/env bash
# protoc-c includes the header of every imported file. The constraint options
# (imcodec/constraints/v1/constraints.proto) are read by the generators, not
# by C code, and their header would need protobuf-c's descriptor.proto types,
# which libprotobuf-c-dev does not ship; so the include is dropped from the
# protoc-c output in the folder given.
set -euo pipefail
for file in "$1"/imcodec/v1/*.pb-c.h "$1"/imcodec/testee/v1/testee.pb-c.h; do
    sed -i '/#include "imcodec\/constraints\/v1\/constraints.pb-c.h"/d' "$file"
done
