/**
 * What the load tools share, and nothing that belongs to one of them: the client selector loop
 * every tool thread runs ({@link io.tickwork.client.common.ClientSelectorLoop}),
 * target parsing (any host, resolved once), a reader for the tools' own JSON reports, the operating-system limits a connect can hit with the advice to
 * raise them, the incremental HTTP/1.1 response parser, the latency range every histogram uses,
 * the command-line quantities (durations, counts, rates) and their checks, and the text and JSON
 * formatting of reports. It depends on no tool; the tools depend on it.
 */
package io.tickwork.client.common;
