package io.timelinearchive.cli;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.timelinearchive.archive.ArchiveResult;
import io.timelinearchive.archive.read.ArchiveFileSummary;
import io.timelinearchive.format.ArchivedInstant;
import io.timelinearchive.format.EntryFields;
import io.timelinearchive.select.ArchivalPlan;
import io.timelinearchive.select.Barrier;
import io.timelinearchive.timeline.TimelineInstant;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** Turns results into text lines and JSON-ready maps. */
final class Reports {
  private Reports() {}

  /** The version of the JSON every command prints; raised when a field changes meaning. */
  static final int SCHEMA_VERSION = 1;

  /**
   * The start of every command's JSON: {@code schemaVersion} and {@code table}, so that one reader
   * handles the output of every command.
   */
  static Map<String, Object> document(String table) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("schemaVersion", SCHEMA_VERSION);
    m.put("table", table);
    return m;
  }

  /**
   * The instant files as {@code instantFiles} (one entry per state file), with {@code instants}:
   * how many instants (time and action) they belong to, the same count in every command.
   */
  static void putInstantFiles(Map<String, Object> m, Collection<TimelineInstant> files) {
    m.put("instantFiles", files.stream().map(Reports::instant).toList());
    m.put("instants", instantCount(files));
  }

  /**
   * How many instants the files belong to: the requested, inflight and completed file count once.
   */
  static long instantCount(Collection<TimelineInstant> files) {
    return files.stream().map(i -> i.time() + " " + i.action().actionName()).distinct().count();
  }

  static Map<String, Object> instant(TimelineInstant i) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("time", i.time());
    m.put("action", i.action().actionName());
    m.put("state", i.state().name());
    return m;
  }

  static Map<String, Object> barrier(Barrier b) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("kind", b.kind().name());
    m.put("scope", b.scope().name());
    m.put("time", b.instantTime().orElse(null));
    m.put("message", b.message());
    return m;
  }

  static Map<String, Object> plan(
      String table, ArchivalPlan plan, List<String> rules, boolean dryRun) {
    Map<String, Object> m = document(table);
    if (dryRun) {
      m.put("dryRun", true);
    }
    m.put("instantFiles", plan.files().stream().map(Reports::instant).toList());
    m.put("instants", plan.instants().size());
    m.put("instantsByAction", byAction(plan));
    m.put("barrier", barrier(plan.barrier()));
    m.put("barriers", plan.barriers().stream().map(Reports::barrier).toList());
    m.put("minCommits", plan.minCommits());
    m.put("maxCommits", plan.maxCommits());
    m.put("rules", rules);
    m.put("warnings", plan.warnings());
    return m;
  }

  static Map<String, Integer> byAction(ArchivalPlan plan) {
    Map<String, Integer> counts = new java.util.TreeMap<>();
    plan.countsByAction().forEach((a, n) -> counts.put(a.actionName(), n));
    return counts;
  }

  static void printPlanSummary(PrintWriter out, ArchivalPlan plan, List<String> rules) {
    if (!plan.countsByAction().isEmpty()) {
      out.println("by action: " + byAction(plan));
    }
    out.println(
        "retention: keep " + plan.minCommits() + " to " + plan.maxCommits() + " completed commits");
    rules.forEach(r -> out.println("rule: " + r));
    for (Barrier b : plan.barriers()) {
      out.println("selection stopped (" + lower(b.scope()) + "): " + b.message());
    }
    plan.warnings().forEach(w -> out.println("warning: " + w));
  }

  static Map<String, Object> result(String table, ArchiveResult r) {
    Map<String, Object> m = document(table);
    m.put("activeBefore", r.activeBefore());
    m.put("activeAfter", r.activeAfter());
    putInstantFiles(m, r.archived());
    m.put("instantsByAction", r.archivedByAction());
    m.put("recovered", r.recovered().stream().map(Reports::instant).toList());
    m.put(
        "archiveFilesWritten",
        r.archiveFilesWritten().stream()
            .map(
                f -> {
                  Map<String, Object> w = new LinkedHashMap<>();
                  w.put("name", f.name());
                  w.put("appended", f.appended());
                  w.put("bytes", f.bytesWritten());
                  w.put("blocks", f.blocks());
                  return w;
                })
            .toList());
    m.put("filesDeleted", r.filesDeleted());
    m.put("auxFilesDeleted", r.auxFilesDeleted());
    m.put("archiveFilesPurged", r.archiveFilesPurged());
    m.put("archiveFilesMerged", r.archiveFilesMerged());
    m.put("mergedArchiveFile", r.mergedArchiveFile().orElse(null));
    m.put("barrier", barrier(r.barrier()));
    m.put("barriers", r.barriers().stream().map(Reports::barrier).toList());
    m.put("warnings", r.warnings());
    m.put("requests", r.requests().asMap());
    m.put("serviceRequests", r.serviceRequests());
    Map<String, Object> phases = new LinkedHashMap<>();
    r.phases().forEach((k, v) -> phases.put(k, millis(v)));
    m.put("phasesMillis", phases);
    m.put("durationMillis", millis(r.duration()));
    return m;
  }

  static void printResult(PrintWriter out, ArchiveResult r) {
    out.println("instant files before: " + r.activeBefore() + ", after: " + r.activeAfter());
    if (!r.recovered().isEmpty()) {
      out.println(
          "finished an interrupted run: " + r.recovered().size() + " archived file(s) deleted");
    }
    out.println(
        "archived "
            + r.archived().size()
            + " instant file(s) of "
            + r.archivedByAction().values().stream().mapToInt(Integer::intValue).sum()
            + " instant(s)"
            + (r.archivedByAction().isEmpty() ? "" : ": " + r.archivedByAction()));
    for (ArchiveResult.WrittenFile f : r.archiveFilesWritten()) {
      out.println(
          (f.appended() ? "appended to " : "wrote ")
              + f.name()
              + ": "
              + f.blocks()
              + " block(s), "
              + f.bytesWritten()
              + " bytes");
    }
    if (r.auxFilesDeleted() > 0) {
      out.println("removed " + r.auxFilesDeleted() + " old file(s) from .hoodie/.aux/");
    }
    if (!r.archiveFilesPurged().isEmpty()) {
      out.println(
          "purged "
              + r.archiveFilesPurged().size()
              + " archive file(s) past archive.history.max-age: "
              + String.join(", ", r.archiveFilesPurged()));
    }
    if (r.mergedArchiveFile().isPresent()) {
      out.println(
          "merged "
              + r.archiveFilesMerged().size()
              + " small archive file(s) into "
              + r.mergedArchiveFile().get());
    }
    out.println("selection stopped: " + r.barrier().message());
    for (Barrier b : r.barriers()) {
      if (b.scope() != r.barrier().scope()) {
        out.println("  " + lower(b.scope()) + ": " + b.message());
      }
    }
    r.warnings().forEach(w -> out.println("warning: " + w));
    out.println("requests: " + r.requests().asMap() + " in " + millis(r.duration()) + " ms");
    if (!r.serviceRequests().isEmpty()) {
      out.println("service requests: " + r.serviceRequests());
    }
    out.flush();
  }

  static Map<String, Object> archivedInstant(ArchivedInstant a, boolean details) {
    Map<String, Object> m = instant(a.instant());
    m.put("stateTransitionTime", a.stateTransitionTime().orElse(null));
    if (details) {
      m.put("rawContentBytes", a.rawContent().map(ByteBuffer::remaining).orElse(null));
      m.put("details", details(a));
    }
    return m;
  }

  /** A name in a timeline folder that looks like an instant file but is none, and why. */
  static Map<String, Object> malformed(String name, String reason) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("name", name);
    m.put("reason", reason);
    return m;
  }

  static Map<String, Object> archiveFile(ArchiveFileSummary f) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("name", f.name());
    m.put("version", f.version());
    m.put("bytes", f.length());
    m.put("blocks", f.blocks());
    m.put("entries", f.entries());
    m.put("truncatedTail", f.truncatedTail());
    return m;
  }

  /**
   * The archived entry as a JSON object, without the instant file's raw bytes: they repeat the
   * metadata, and {@link #archivedInstant} gives their length instead.
   */
  static ObjectNode details(ArchivedInstant a) {
    return a.entry()
        .map(e -> AvroJson.record(e, Set.of(EntryFields.RAW_CONTENT, EntryFields.DEFLATED_CONTENT)))
        .orElseGet(JsonNodeFactory.instance::objectNode);
  }

  private static long millis(Duration d) {
    return d.toMillis();
  }

  static String lower(Enum<?> e) {
    return e.name().toLowerCase(Locale.ROOT);
  }
}
