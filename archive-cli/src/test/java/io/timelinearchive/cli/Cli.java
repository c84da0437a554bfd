package io.timelinearchive.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;

/** Runs the command line in this JVM, capturing standard output and error. */
final class Cli {
  private static final ObjectMapper JSON = new ObjectMapper();

  private Cli() {}

  static Run run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = TimelineArchiveCommand.run(args, new PrintWriter(out), new PrintWriter(err));
    return new Run(code, out.toString(), err.toString());
  }

  /** Runs and checks the exit code is 0, showing standard error when it is not. */
  static Run ok(String... args) {
    Run run = run(args);
    assertThat(run.exitCode()).as("exit code; stderr: %s", run.err()).isZero();
    return run;
  }

  static JsonNode parse(String json) {
    try {
      return JSON.readTree(json);
    } catch (IOException e) {
      throw new AssertionError("not JSON: " + json, e);
    }
  }

  record Run(int exitCode, String out, String err) {
    JsonNode json() {
      return parse(out);
    }

    List<String> outLines() {
      return out.lines().toList();
    }

    List<String> errLines() {
      return err.lines().toList();
    }

    /** Whether standard error holds a stack trace. */
    boolean hasStackTrace() {
      return err.lines().anyMatch(l -> l.startsWith("\tat "));
    }
  }
}
