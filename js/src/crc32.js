// CRC-32 with the IEEE polynomial, as zlib's crc32 computes it: the frame
// checksum (docs/spec/frame-format.md, "Layout").

const TABLE = (() => {
    const table = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
        let c = n;
        for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
        table[n] = c >>> 0;
    }
    return table;
})();

/**
 * Continues a CRC-32 over more bytes: `crc32(b, crc32(a))` is the CRC-32 of
 * `a` followed by `b`, as with zlib's `crc32(crc, buf, len)`.
 * @param {Uint8Array} bytes The bytes to add.
 * @param {number} [crc=0] The CRC-32 of the bytes before them.
 * @returns {number} The CRC-32, an unsigned 32-bit number.
 */
export function crc32(bytes, crc = 0) {
    let c = ~crc >>> 0;
    for (let i = 0; i < bytes.length; i++) c = TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
    return ~c >>> 0;
}
