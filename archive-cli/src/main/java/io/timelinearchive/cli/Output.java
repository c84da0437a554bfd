package io.timelinearchive.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.timelinearchive.timeline.TimelineInstant;
import java.io.PrintWriter;
import java.util.Collection;

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
