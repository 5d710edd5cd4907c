// Bytes as a caller may hold them: a Uint8Array (Node's Buffer is one), an
// ArrayBuffer (a WebSocket's or fetch's), a DataView or any other typed array.

/**
 * Bytes in any of the forms the web platform and Node hand out.
 * @typedef {Uint8Array|ArrayBuffer|SharedArrayBuffer|ArrayBufferView} BytesLike
 */

/**
 * Whether a value is bytes in one of the accepted forms.
 * @param {unknown} value
 * @returns {value is BytesLike}
 */
export function isBytes(value) {
    return (
        value instanceof Uint8Array ||
        value instanceof ArrayBuffer ||
        ArrayBuffer.isView(value) ||
        (typeof SharedArrayBuffer !== "undefined" && value instanceof SharedArrayBuffer)
    );
}

/**
 * The bytes as a plain Uint8Array over the same memory (no copy): a Buffer
 * becomes a Uint8Array too, so that what is read from it (payloads, bytes
 * fields) has one type whatever came in.
 * @param {BytesLike} value
 * @param {string} what The argument's name, for the error.
 * @returns {Uint8Array}
 * @throws {TypeError} When the value is not bytes.
 */
export function toBytes(value, what) {
    if (value instanceof Uint8Array && value.constructor === Uint8Array) return value;
    if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
    if (isBytes(value)) return new Uint8Array(value);
    throw new TypeError(`${what} is not bytes (a Uint8Array, ArrayBuffer, DataView or Buffer)`);
}
