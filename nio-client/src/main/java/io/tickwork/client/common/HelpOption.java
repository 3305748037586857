package io.tickwork.client.common;

import picocli.CommandLine.Option;

/**
 * {@code -h}/{@code --help} for every load-tool command, as a picocli mixin
 * ({@code @Mixin HelpOption help = new HelpOption();}): picocli prints the command's generated
 * usage instead of running it.
 */
public final class HelpOption {
    @Option(
            names = {"-h", "--help"},
            usageHelp = true,
            description = "this text")
    boolean help;
}
