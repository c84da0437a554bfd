package io.timelinearchive.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.timelinearchive.timeline.TimelineInstant;
import java.io.PrintWriter;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;

/** Text or JSON on standard output. */
final class Output {
  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
  private static final ObjectMapper COMPACT = new ObjectMapper();

  private Output() {}

  static void json(PrintWriter out, Object value) {
    try {
      out.println(JSON.writeValueAsString(value));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot print JSON", e);
    }
    out.flush();
  }

  /**
   * Under {@code --json}, a failure on standard output too, so that a script reading JSON sees it:
   * {@code {"schemaVersion":1,"error":"…","exitCode":3}}.
   */
  static void error(PrintWriter out, String message, int exitCode) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("schemaVersion", Reports.SCHEMA_VERSION);
    m.put("error", message);
    m.put("exitCode", exitCode);
    json(out, m);
  }

  /** The value as JSON on one line. */
  static String compactJson(Object value) {
    try {
      return COMPACT.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot print JSON", e);
    }
  }

  static String line(TimelineInstant instant) {
    return instant.time() + " " + instant.action().actionName() + " " + instant.state();
  }

  static void lines(PrintWriter out, Collection<TimelineInstant> instants) {
    for (TimelineInstant i : instants) {
      out.println(line(i));
    }
  }
}
