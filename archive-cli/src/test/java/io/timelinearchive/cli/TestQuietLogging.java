package io.timelinearchive.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Logging is set once per JVM, before the first logger, so each run here is a JVM of its own
 * started through {@code main}. An Azure table without credentials sends the Azure credential chain
 * through every credential it knows, each of which logs; by default none of that reaches standard
 * error, only the command's own error; {@code --verbose} and {@code --log-level} let it through.
 */
class TestQuietLogging {
  private static final Path JAVA = Path.of(System.getProperty("java.home"), "bin", "java");
  // slf4j-simple's line: "[thread] LEVEL logger - message"
  private static final Pattern LOG_LINE =
      Pattern.compile("^\\[[^]]*\\] (TRACE|DEBUG|INFO|WARN|ERROR) [\\w.$]+ - .*");

  @TempDir static Path work;
  private static int closedPort;

  record Run(int exitCode, String err) {
    List<String> logLines() {
      return err.lines().filter(l -> LOG_LINE.matcher(l).matches()).toList();
    }
  }

  @BeforeAll
  static void port() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closedPort = socket.getLocalPort();
    }
  }

  private static Run main(String... args) throws Exception {
    List<String> command =
        new ArrayList<>(
            List.of(
                JAVA.toString(),
                "-cp",
                System.getProperty("java.class.path"),
                TimelineArchiveCommand.class.getName()));
    command.addAll(List.of(args));
    Path err = Files.createTempFile(work, "err", ".txt");
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .redirectError(err.toFile())
            .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
    // The credential chain must find nothing: no service principal from this environment.
    builder.environment().keySet().removeIf(k -> k.startsWith("AZURE_") || k.startsWith("MSI_"));
    Process process = builder.start();
    if (!process.waitFor(3, TimeUnit.MINUTES)) {
      process.destroyForcibly().waitFor();
      throw new AssertionError("did not finish: " + command);
    }
    return new Run(process.exitValue(), Files.readString(err, UTF_8));
  }

  // https: the SDK sends a bearer token over nothing else, and refuses to build the client.
  private static String[] azureWithoutCredentials(String... more) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "show",
                "active",
                "abfs://container@devstoreaccount1/t",
                "--conf",
                "azure.endpoint=https://127.0.0.1:" + closedPort + "/devstoreaccount1"));
    args.addAll(List.of(more));
    return args.toArray(String[]::new);
  }

  @Test
  void byDefaultOnlyTheCommandsOwnErrorReachesStandardError() throws Exception {
    Run run = main(azureWithoutCredentials());

    assertThat(run.exitCode()).as("stderr: %s", run.err()).isEqualTo(5);
    assertThat(run.err().lines().toList())
        .as("stderr")
        .singleElement()
        .asString()
        .startsWith("error: cannot reach the store for abfs://container@devstoreaccount1/t/")
        .contains("no Azure credentials");
  }

  @Test
  void verboseLetsTheLibrariesLogFromInfo() throws Exception {
    Run run = main(azureWithoutCredentials("--verbose"));

    assertThat(run.exitCode()).as("stderr: %s", run.err()).isEqualTo(5);
    assertThat(run.logLines()).as("stderr: %s", run.err()).anyMatch(l -> l.contains(" com.azure."));
  }

  @Test
  void logLevelSetsEveryLoggersLevel() throws Exception {
    Run errorsOnly = main(azureWithoutCredentials("--log-level", "ERROR"));
    Run debug = main(azureWithoutCredentials("--log-level=debug"));

    assertThat(errorsOnly.logLines()).allMatch(l -> l.contains("] ERROR "));
    assertThat(debug.logLines()).anyMatch(l -> l.contains("] DEBUG "));
  }
}
