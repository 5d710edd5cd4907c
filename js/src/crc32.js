// CRC-32 with the IEEE polynomial, as zlib's crc32 computes it: the frame
// checksum (docs/spec/frame-format.md, "Layout").

// Slicing by 8 (Intel's method, as zlib's braided CRC does the same work):
// TABLES[k][b] is the CRC of byte b followed by k zero bytes, so eight
// input bytes are folded in with eight lookups and no per-byte shift chain.
const TABLES = (() => {
    const tables = Array.from({ length: 8 }, () => new Uint32Array(256));
    for (let n = 0; n < 256; n++) {
        let c = n;
        for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
        tables[0][n] = c >>> 0;
    }
    for (let n = 0; n < 256; n++) {
        let c = tables[0][n];
        for (let k = 1; k < 8; k++) {
            c = tables[0][c & 0xff] ^ (c >>> 8);
            tables[k][n] = c >>> 0;
        }
    }
    return tables;
})();
const [T0, T1, T2, T3, T4, T5, T6, T7] = TABLES;

// The platform's own CRC-32 with zlib's arguments (bytes, crc), set by its
// entry point (src/node.js: zlib.crc32), as the member of an object made for
// it, which V8 reads as a constant (a function in a variable that may change
// is called more slowly). It is called for inputs of NATIVE_FROM bytes and
// more; below that the call costs more than the table.
let native = null;
const NATIVE_FROM = 192;

/**
 * Sets the platform's CRC-32 that {@link crc32} hands longer inputs to, for
 * the entry points; null for the tables alone.
 * @param {((bytes: Uint8Array, crc: number) => number) | null | undefined} fn
 */
export function setNativeCRC32(fn) {
    native = typeof fn === "function" ? { crc32: fn } : null;
}

/**
 * Continues a CRC-32 over more bytes: `crc32(b, crc32(a))` is the CRC-32 of
 * `a` followed by `b`, as with zlib's `crc32(crc, buf, len)`.
 * @param {Uint8Array} bytes The bytes to add.
 * @param {number} [crc=0] The CRC-32 of the bytes before them.
 * @returns {number} The CRC-32, an unsigned 32-bit number.
 */
export function crc32(bytes, crc = 0) {
    if (native !== null && bytes.length >= NATIVE_FROM && bytes instanceof Uint8Array && crc >>> 0 === crc) {
        return native.crc32(bytes, crc);
    }
    return crc32Range(bytes, 0, bytes.length, crc);
}

/**
 * Continues a CRC-32 over `bytes[start..<end]` with the tables, without a
 * view of the range: for the few bytes of a frame header.
 * @param {Uint8Array} bytes
 * @param {number} start
 * @param {number} end
 * @param {number} crc The CRC-32 of the bytes before them.
 * @returns {number}
 */
export function crc32Range(bytes, start, end, crc) {
    let c = ~crc;
    let i = start;
    for (const last = end - ((end - start) & 7); i < last; i += 8) {
        const lo = c ^ (bytes[i] | (bytes[i + 1] << 8) | (bytes[i + 2] << 16) | (bytes[i + 3] << 24));
        c =
            T7[lo & 0xff] ^
            T6[(lo >>> 8) & 0xff] ^
            T5[(lo >>> 16) & 0xff] ^
            T4[lo >>> 24] ^
            T3[bytes[i + 4]] ^
            T2[bytes[i + 5]] ^
            T1[bytes[i + 6]] ^
            T0[bytes[i + 7]];
    }
    for (; i < end; i++) c = T0[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
    return ~c >>> 0;
}
