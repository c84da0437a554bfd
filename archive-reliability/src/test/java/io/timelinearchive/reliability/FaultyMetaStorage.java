package io.timelinearchive.reliability;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.storage.AppendableLog;
import io.timelinearchive.storage.DeleteFailedException;
import io.timelinearchive.storage.FileIterator;
import io.timelinearchive.storage.ForwardingAppendableLog;
import io.timelinearchive.storage.ForwardingMetaStorage;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.OutcomeUnknownException;
import io.timelinearchive.storage.StorageLocation;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * Store faults in-process, for stores no HTTP proxy can stand in front of (local disk, HDFS): each
 * call, and each file of a {@code deleteAll}, is matched against a {@link Rule} that forwards it,
 * fails it before it reaches the store (a transient error), fails it after it took effect (the
 * answer lost), or forwards it after a pause.
 *
 * <p>A lost answer looks as a real store reports it: an {@link OutcomeUnknownException} from {@code
 * createExclusive} (what the S3 and HDFS backends raise when they cannot tell), a {@link
 * DeleteFailedException} naming the files from {@code deleteAll}, a plain {@link IOException}
 * elsewhere. Every fault is counted, so a test can tell a case whose fault never fired.
 */
final class FaultyMetaStorage extends ForwardingMetaStorage {
  enum Kind {
    LIST,
    /** {@code read} or {@code open} of a file. */
    READ,
    CREATE,
    OPEN_LOG,
    /** One {@code append} to a log: the bytes, forced to disk. */
    APPEND,
    /** One file of a {@code deleteAll}. */
    DELETE
  }

  enum Fault {
    FORWARD,
    /** Throws without calling the store, as a 503 would. */
    FAIL_BEFORE,
    /** Calls the store, then throws: the effect happened, the answer was lost. */
    FAIL_AFTER,
    /** Forwards after a pause. */
    DELAY
  }

  record Call(Kind kind, StorageLocation location) {
    Call {
      requireNonNull(kind, "kind is null");
      requireNonNull(location, "location is null");
    }

    String name() {
      return location.fileName();
    }

    boolean isInstantRead() {
      return kind == Kind.READ && name().matches("\\d+\\.[a-z.]+");
    }

    boolean isArchiveFile() {
      return name().startsWith(".commits_.archive.");
    }

    boolean isLock() {
      return name().startsWith(".timeline_archive.lock.");
    }

    /**
     * A call that changes the store: a create, an open for append (may create), an append, a
     * delete.
     */
    boolean isMutating() {
      return kind == Kind.CREATE
          || kind == Kind.OPEN_LOG
          || kind == Kind.APPEND
          || kind == Kind.DELETE;
    }

    boolean isJournal() {
      return name().equals(".timeline_archive.journal");
    }
  }

  /** Decides each call's fault; called from several threads (the archiver reads in parallel). */
  @FunctionalInterface
  interface Rule {
    Fault apply(Call call);

    Rule NONE = call -> Fault.FORWARD;

    /** Faults the first {@code n} matching calls. */
    static Rule first(int n, Predicate<Call> match, Fault fault) {
      AtomicInteger seen = new AtomicInteger();
      return call -> match.test(call) && seen.incrementAndGet() <= n ? fault : Fault.FORWARD;
    }

    /** Faults every matching call. */
    static Rule every(Predicate<Call> match, Fault fault) {
      return call -> match.test(call) ? fault : Fault.FORWARD;
    }

    /** Faults every {@code n}th matching call. */
    static Rule everyNth(int n, Predicate<Call> match, Fault fault) {
      AtomicInteger seen = new AtomicInteger();
      return call -> match.test(call) && seen.incrementAndGet() % n == 0 ? fault : Fault.FORWARD;
    }

    /** Faults every matching call after the first {@code n}. */
    static Rule after(int n, Predicate<Call> match, Fault fault) {
      AtomicInteger seen = new AtomicInteger();
      return call -> match.test(call) && seen.incrementAndGet() > n ? fault : Fault.FORWARD;
    }

    /** Every {@code n}th matching call gets the next of {@code faults}, in turn. */
    static Rule inTurn(int n, Predicate<Call> match, List<Fault> faults) {
      List<Fault> copy = List.copyOf(faults);
      AtomicInteger seen = new AtomicInteger();
      return call -> {
        if (!match.test(call)) {
          return Fault.FORWARD;
        }
        int i = seen.incrementAndGet();
        return i % n == 0 ? copy.get((i / n - 1) % copy.size()) : Fault.FORWARD;
      };
    }
  }

  private final Rule rule;
  private final Duration delay;
  private final AtomicInteger faulted = new AtomicInteger();
  private final Map<Fault, AtomicInteger> byFault = new java.util.EnumMap<>(Fault.class);

  FaultyMetaStorage(MetaStorage delegate, Rule rule, Duration delay) {
    super(delegate);
    this.rule = requireNonNull(rule, "rule is null");
    this.delay = requireNonNull(delay, "delay is null");
    for (Fault f : Fault.values()) {
      byFault.put(f, new AtomicInteger());
    }
  }

  /** The calls (and deleted files) that were failed or delayed so far. */
  int faulted() {
    return faulted.get();
  }

  /** How many calls got each fault, {@link Fault#FORWARD} left out. */
  Map<Fault, Integer> faultsByKind() {
    Map<Fault, Integer> counts = new java.util.EnumMap<>(Fault.class);
    byFault.forEach(
        (f, n) -> {
          if (f != Fault.FORWARD && n.get() > 0) {
            counts.put(f, n.get());
          }
        });
    return counts;
  }

  @Override
  public FileIterator list(StorageLocation folder) throws IOException {
    Call call = new Call(Kind.LIST, folder);
    Fault fault = decide(call);
    FileIterator files = delegate.list(folder);
    after(fault, call);
    return files;
  }

  @Override
  public byte[] read(StorageLocation file) throws IOException {
    Call call = new Call(Kind.READ, file);
    Fault fault = decide(call);
    byte[] bytes = delegate.read(file);
    after(fault, call);
    return bytes;
  }

  @Override
  public InputStream open(StorageLocation file) throws IOException {
    Call call = new Call(Kind.READ, file);
    Fault fault = decide(call);
    InputStream in = delegate.open(file);
    if (fault == Fault.FAIL_AFTER) {
      in.close();
    }
    after(fault, call);
    return in;
  }

  @Override
  public void createExclusive(StorageLocation file, byte[] content) throws IOException {
    Call call = new Call(Kind.CREATE, file);
    Fault fault = decide(call);
    delegate.createExclusive(file, content);
    if (fault == Fault.FAIL_AFTER) {
      // What a store reports when the answer to its write was lost and its retry found the file.
      throw new OutcomeUnknownException(
          "injected: created " + file + " but the answer was lost", injected(call));
    }
  }

  @Override
  public Optional<AppendableLog> openLog(StorageLocation file) throws IOException {
    Call call = new Call(Kind.OPEN_LOG, file);
    Fault fault = decide(call);
    Optional<AppendableLog> log = delegate.openLog(file);
    if (fault == Fault.FAIL_AFTER) {
      // The file may now exist (created empty); the log itself never reached the caller.
      if (log.isPresent()) {
        log.get().close();
      }
      throw injected(call);
    }
    return log.map(FaultyLog::new);
  }

  @Override
  public void deleteAll(Collection<StorageLocation> files) throws IOException {
    List<StorageLocation> deleting = new ArrayList<>();
    Map<StorageLocation, String> failures = new LinkedHashMap<>();
    boolean delayed = false;
    for (StorageLocation file : files) {
      switch (fault(new Call(Kind.DELETE, file))) {
        case FAIL_BEFORE -> failures.put(file, "injected: failed before deleting");
        case FAIL_AFTER -> {
          deleting.add(file);
          failures.put(file, "injected: deleted, but the answer was lost");
        }
        case DELAY -> {
          delayed = true;
          deleting.add(file);
        }
        case FORWARD -> deleting.add(file);
      }
    }
    // one batch is one request to the store: one pause, however many of its files were delayed
    if (delayed) {
      pause();
    }
    if (!deleting.isEmpty()) {
      delegate.deleteAll(deleting);
    }
    // as a store reports a batch: every file tried, each failure named
    if (!failures.isEmpty()) {
      throw new DeleteFailedException(failures);
    }
  }

  /** Counts the call's fault and applies what happens before the call: a failure or a pause. */
  private Fault decide(Call call) throws IOException {
    Fault fault = fault(call);
    switch (fault) {
      case FAIL_BEFORE -> throw injected(call);
      case DELAY -> pause();
      default -> {}
    }
    return fault;
  }

  private Fault fault(Call call) {
    Fault fault = requireNonNull(rule.apply(call), "rule answered null");
    byFault.get(fault).incrementAndGet();
    if (fault != Fault.FORWARD) {
      faulted.incrementAndGet();
    }
    return fault;
  }

  private static void after(Fault fault, Call call) throws IOException {
    if (fault == Fault.FAIL_AFTER) {
      throw injected(call);
    }
  }

  private void pause() throws InterruptedIOException {
    try {
      Thread.sleep(delay.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while delaying a call");
    }
  }

  private static IOException injected(Call call) {
    return new IOException("injected fault: " + call.kind() + " " + call.location());
  }

  /**
   * Faults appends; a failed append leaves the log unusable, as {@link AppendableLog} tells callers
   * never to append after one, and a caller that does is a bug this makes loud.
   */
  private final class FaultyLog extends ForwardingAppendableLog {
    private boolean failed;

    FaultyLog(AppendableLog log) {
      super(log);
    }

    @Override
    public void append(byte[] bytes) throws IOException {
      if (failed) {
        throw new IllegalStateException("append to " + location() + " after a failed append");
      }
      Call call = new Call(Kind.APPEND, location());
      failed = true;
      Fault fault = decide(call);
      delegate.append(bytes);
      after(fault, call);
      failed = false;
    }
  }
}
