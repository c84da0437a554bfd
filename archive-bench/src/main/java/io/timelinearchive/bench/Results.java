package io.timelinearchive.bench;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * The results table, as Markdown and as JSON with the machine it ran on. Each figure's latest run
 * is kept in {@code figures/<figure>.json}, so that running some figures again (say P1 and P5 after
 * a change to the archiver) refreshes their rows and keeps the others' (each row group says when it
 * was measured).
 */
final class Results {
  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private Results() {}

  record Machine(int cores, String jvm, long maxHeapBytes, String os, String jvmArgs) {
    static Machine current() {
      return new Machine(
          Runtime.getRuntime().availableProcessors(),
          System.getProperty("java.vm.name")
              + " "
              + System.getProperty("java.runtime.version", System.getProperty("java.version")),
          Runtime.getRuntime().maxMemory(),
          System.getProperty("os.name") + " " + System.getProperty("os.arch"),
          String.join(" ", ManagementFactory.getRuntimeMXBean().getInputArguments()));
    }

    String describe() {
      return String.format(
          Locale.ROOT,
          "%d cores, %s, max heap %,d MiB, %s",
          cores,
          jvm,
          maxHeapBytes / (1024 * 1024),
          os);
    }
  }

  /** The rows of one figure's run, with when and where it ran. */
  record FigureRun(String figure, ZonedDateTime date, Machine machine, List<Row> rows) {}

  static String markdown(List<FigureRun> runs, boolean quick) {
    StringBuilder md = new StringBuilder();
    if (quick) {
      md.append(
          "**Quick mode**: small sizes, to check the harness; not the figures of record.\n\n");
    }
    md.append("| figure | size | ours | comparator | ratio | goal | result |\n");
    md.append("|---|---|---|---|---|---|---|\n");
    for (FigureRun run : runs) {
      for (Row r : run.rows()) {
        md.append("| ")
            .append(cell(r.figure()))
            .append(" | ")
            .append(cell(r.size()))
            .append(" | ")
            .append(cell(r.ours()))
            .append(" | ")
            .append(cell(r.comparator()))
            .append(" | ")
            .append(cell(r.ratio()))
            .append(" | ")
            .append(cell(r.goal()))
            .append(" | ")
            .append(r.metText())
            .append(" |\n");
      }
    }
    md.append("\nMeasured:\n\n");
    for (FigureRun run : runs) {
      md.append("- ")
          .append(run.figure())
          .append(": ")
          .append(run.date().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME))
          .append(" on ")
          .append(run.machine().describe())
          .append("\n");
    }
    md.append("\nNotes:\n\n");
    for (FigureRun run : runs) {
      for (Row r : run.rows()) {
        md.append("- ")
            .append(r.figure())
            .append(", ")
            .append(r.size())
            .append(": ")
            .append(r.note())
            .append("\n");
      }
    }
    return md.toString();
  }

  private static String cell(String text) {
    return text.replace("|", "\\|").replace("\n", " ");
  }

  static String json(List<FigureRun> runs, ZonedDateTime date, boolean quick) {
    ObjectNode root = JSON.createObjectNode();
    root.put("date", date.format(DateTimeFormatter.ISO_OFFSET_DATE_TIME));
    root.put("quick", quick);
    root.set("machine", machine(Machine.current()));
    ArrayNode figures = root.putArray("figures");
    runs.forEach(run -> figures.add(figure(run)));
    return write(root);
  }

  private static ObjectNode figure(FigureRun run) {
    ObjectNode f = JSON.createObjectNode();
    f.put("figure", run.figure());
    f.put("date", run.date().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME));
    f.set("machine", machine(run.machine()));
    ArrayNode rows = f.putArray("rows");
    run.rows().forEach(r -> rows.add(row(r)));
    return f;
  }

  private static ObjectNode machine(Machine machine) {
    ObjectNode m = JSON.createObjectNode();
    m.put("cores", machine.cores());
    m.put("jvm", machine.jvm());
    m.put("maxHeapBytes", machine.maxHeapBytes());
    m.put("os", machine.os());
    m.put("jvmArgs", machine.jvmArgs());
    return m;
  }

  private static ObjectNode row(Row r) {
    ObjectNode n = JSON.createObjectNode();
    n.put("figure", r.figure());
    n.put("size", r.size());
    n.put("ours", r.ours());
    n.put("comparator", r.comparator());
    n.put("ratio", r.ratio());
    if (Double.isNaN(r.ratioValue())) {
      n.putNull("ratioValue");
    } else {
      n.put("ratioValue", r.ratioValue());
    }
    n.put("goal", r.goal());
    if (r.met() == null) {
      n.putNull("met");
    } else {
      n.put("met", r.met());
    }
    n.put("note", r.note());
    return n;
  }

  private static FigureRun figure(JsonNode f) {
    JsonNode m = f.get("machine");
    Machine machine =
        new Machine(
            m.get("cores").asInt(),
            m.get("jvm").asText(),
            m.get("maxHeapBytes").asLong(),
            m.get("os").asText(),
            m.get("jvmArgs").asText());
    List<Row> rows = new ArrayList<>();
    for (JsonNode n : f.get("rows")) {
      rows.add(
          new Row(
              n.get("figure").asText(),
              n.get("size").asText(),
              n.get("ours").asText(),
              n.get("comparator").asText(),
              n.get("ratio").asText(),
              n.get("goal").asText(),
              n.get("met").isNull() ? null : n.get("met").asBoolean(),
              n.get("note").asText(),
              n.get("ratioValue").isNull() ? Double.NaN : n.get("ratioValue").asDouble()));
    }
    return new FigureRun(
        f.get("figure").asText(), ZonedDateTime.parse(f.get("date").asText()), machine, rows);
  }

  private static String write(JsonNode node) {
    try {
      return JSON.writeValueAsString(node) + "\n";
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Every figure's latest saved run under {@code dir}, P1 first. */
  static List<FigureRun> load(Path dir) throws IOException {
    Path figures = dir.resolve("figures");
    List<FigureRun> runs = new ArrayList<>();
    if (!Files.isDirectory(figures)) {
      return runs;
    }
    try (Stream<Path> files = Files.list(figures)) {
      for (Path f : files.filter(p -> p.toString().endsWith(".json")).sorted().toList()) {
        runs.add(figure(JSON.readTree(Files.readString(f, UTF_8))));
      }
    }
    return runs;
  }

  /**
   * Saves each run as {@code dir/figures/<figure>.json}, then writes {@code latest.md} and {@code
   * latest.json} (and, but in quick mode, dated copies) from the latest run of every figure.
   *
   * @return the Markdown table
   */
  static String write(Path dir, List<FigureRun> runs, boolean quick) throws IOException {
    Path figures = Files.createDirectories(dir.resolve("figures"));
    for (FigureRun run : runs) {
      Files.writeString(figures.resolve(run.figure() + ".json"), write(figure(run)), UTF_8);
    }
    List<FigureRun> all = load(dir);
    ZonedDateTime now = ZonedDateTime.now(ZoneOffset.UTC);
    String md = markdown(all, quick);
    String json = json(all, now, quick);
    Files.writeString(dir.resolve("latest.md"), md, UTF_8);
    Files.writeString(dir.resolve("latest.json"), json, UTF_8);
    if (!quick) {
      String stamp = now.format(DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HHmm'Z'"));
      Files.writeString(dir.resolve(stamp + ".md"), md, UTF_8);
      Files.writeString(dir.resolve(stamp + ".json"), json, UTF_8);
    }
    return md;
  }
}
