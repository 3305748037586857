/**
 * The NIO HTTP/1.1 dictionary server on WordNet data, and the selector-based load clients that
 * measure it.
 */
package io.tickwork.server;
