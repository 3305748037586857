/**
 * A small, strict HTTP/1.1 server on NIO selector loops: {@link io.tickwork.server.http.HttpServer}
 * (loops, accept, timeouts, back-pressure, graceful stop), the request parser, and the
 * {@link io.tickwork.server.http.HttpHandler} / {@link io.tickwork.server.http.HttpRequest} /
 * {@link io.tickwork.server.http.HttpResponse} triple a handler sees. Inside, each selector loop
 * has an accept side with back-off and an output side that writes the responses of one read with
 * one call; one encoder turns responses into bytes, and worker mode hands handlers to a pool while
 * keeping each connection's responses in order. It knows nothing about dictionaries; framing
 * (status line, Content-Length, Connection, HEAD) is its job, not the handler's.
 */
package io.tickwork.server.http;
