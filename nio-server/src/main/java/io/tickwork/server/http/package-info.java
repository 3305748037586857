/**
 * A small, strict HTTP/1.1 server on NIO selector loops: {@link io.tickwork.server.http.HttpServer}
 * (loops, accept, timeouts, back-pressure, graceful stop), the request parser, and the
 * {@link io.tickwork.server.http.HttpHandler} / {@link io.tickwork.server.http.HttpRequest} /
 * {@link io.tickwork.server.http.HttpResponse} triple a handler sees. It knows nothing about
 * dictionaries; framing (status line, Content-Length, Connection, HEAD) is its job, not the handler's.
 */
package io.tickwork.server.http;
