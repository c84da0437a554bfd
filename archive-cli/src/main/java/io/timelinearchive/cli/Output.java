package io.timelinearchive.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.timelinearchive.timeline.Instant;
import java.io.PrintWriter;
import java.util.Collection;

/** Text or JSON on standard output. */
final class Output {
  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private Output() {}

  static void json(PrintWriter out, Object value) {
    try {
      out.println(JSON.writeValueAsString(value));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot print JSON", e);
    }
    out.flush();
  }

  static String line(Instant instant) {
    return instant.time() + " " + instant.action().actionName() + " " + instant.state();
  }

  static void lines(PrintWriter out, Collection<Instant> instants) {
    for (Instant i : instants) {
      out.println(line(i));
    }
  }
}
