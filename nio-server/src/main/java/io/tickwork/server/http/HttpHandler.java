package io.tickwork.server.http;

/**
 * Answers one parsed request by filling in a response. Called on a selector loop thread, once
 * per request, in the order the requests arrived on the connection; it must not block (no I/O,
 * no locks held for long). In worker mode ({@link HttpServer.Builder#workers}) it is called on
 * the pool's threads instead, in the same order per connection, and may block. One handler instance serves every loop, so it must be thread safe;
 * per-call scratch space comes from {@link HttpRequest#scratch(int)}.
 *
 * <p>A handler that throws (an exception or an {@code Error}) fails its request only: the server
 * logs it and answers 500, and the connection stays open.
 *
 * <p>The server adds the status line, {@code Date}, {@code Content-Length}, {@code Connection}
 * and drops the body for {@code HEAD}: a handler never deals with framing.
 */
@FunctionalInterface
public interface HttpHandler {
    void handle(HttpRequest request, HttpResponse response);
}
