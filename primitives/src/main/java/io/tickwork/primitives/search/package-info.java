/**
 * Searching sorted data: int-key binary-search variants and cache-conscious layouts behind one
 * interface, and a byte-key index over UTF-8 keys stored back to back (what the dictionary server maps).
 */
package io.tickwork.primitives.search;
