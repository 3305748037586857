/**
 * The WordNet 3.1 dictionary: compiled at build time by {@link io.tickwork.server.dict.WordNetCompiler}
 * into one file (format in {@code DictFormat}), memory-mapped and searched in place by
 * {@link io.tickwork.server.dict.Dictionary} through the primitives' {@code ByteKeyIndex}, and
 * served over HTTP by {@link io.tickwork.server.dict.DictionaryHandler}.
 */
package io.tickwork.server.dict;
