/**
 * The NIO HTTP/1.1 dictionary server on WordNet data: its command line ({@link
 * io.tickwork.server.Main}, {@link io.tickwork.server.ServerOptions}) and the many-process launcher;
 * the server itself is in {@code http}, the dictionary in {@code dict}. The load tools that measure
 * it are module {@code nio-client}.
 */
package io.tickwork.server;
