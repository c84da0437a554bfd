package io.timelinearchive.storage;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Random;

/**
 * Simulates the archiving process dying in the middle of a run, to check the invariants hold after
 * a crash at every point.
 *
 * <p>A mutating step is one {@code createExclusive}, one {@code append}, or one file of a {@code
 * deleteAll} (in the collection's order). At the crashing step the call throws {@link
 * SimulatedCrash}, leaving what its {@link CrashEffect} says; from then on every call of any kind
 * throws it too, also on iterators, streams and logs obtained before: the process is dead. Only
 * closing still works, as the operating system closes a dead process's files; closing this storage
 * leaves the wrapped one open for the test to inspect.
 *
 * <p>Typical use: run once with {@link #recording} to learn the number of steps {@code n} of a
 * successful run, then for each {@code k} in {@code 1..n} and each effect, run on a fresh store
 * with {@link #crashingAt}{@code (store, k, effect)}, check the invariants on the wrapped store,
 * run again without faults and check again.
 *
 * <p>Mutating steps run one at a time, so the crash cuts cleanly between the steps before it and
 * those after.
 */
public final class FaultInjectingMetaStorage extends ForwardingMetaStorage {
  /** What the crashing step leaves behind. */
  public enum CrashEffect {
    /** Nothing: the file is not created, no byte is appended, the file is not deleted. */
    NONE,
    /**
     * An append leaves a random proper prefix of its bytes, possibly none (a torn write). Steps
     * that are atomic on every store (create, delete of one file) act as {@link #NONE}.
     */
    TORN,
    /** The step takes full effect; only its acknowledgement is lost. */
    FULL
  }

  /** The simulated death of the process. */
  public static final class SimulatedCrash extends IOException {
    private static final long serialVersionUID = 1L;

    SimulatedCrash(String message) {
      super(message);
    }
  }

  private final int crashStep;
  private final CrashEffect effect;
  private final Random random;
  private final Object stepLock = new Object();
  private int steps;
  private volatile String crash;

  private FaultInjectingMetaStorage(
      MetaStorage delegate, int crashStep, CrashEffect effect, long seed) {
    super(delegate);
    this.crashStep = crashStep;
    this.effect = requireNonNull(effect, "effect is null");
    this.random = new Random(seed);
  }

  /** Never crashes; counts the mutating steps of a run. */
  public static FaultInjectingMetaStorage recording(MetaStorage delegate) {
    return new FaultInjectingMetaStorage(delegate, Integer.MAX_VALUE, CrashEffect.NONE, 0);
  }

  /** Crashes at mutating step {@code step} (from 1), torn writes cut where {@code seed} says. */
  public static FaultInjectingMetaStorage crashingAt(
      MetaStorage delegate, int step, CrashEffect effect, long seed) {
    if (step < 1) {
      throw new IllegalArgumentException("crash step must be at least 1: " + step);
    }
    return new FaultInjectingMetaStorage(delegate, step, effect, seed);
  }

  /** Crashes at mutating step {@code step} (from 1), torn writes cut where the step says. */
  public static FaultInjectingMetaStorage crashingAt(
      MetaStorage delegate, int step, CrashEffect effect) {
    return crashingAt(delegate, step, effect, step);
  }

  /** Whether {@code failure} is, or was caused by, a simulated crash. */
  public static boolean isSimulatedCrash(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof SimulatedCrash) {
        return true;
      }
      for (Throwable suppressed : t.getSuppressed()) {
        if (isSimulatedCrash(suppressed)) {
          return true;
        }
      }
    }
    return false;
  }

  /** The mutating steps begun so far, the crashing one included. */
  public int mutatingSteps() {
    synchronized (stepLock) {
      return steps;
    }
  }

  public boolean crashed() {
    return crash != null;
  }

  @Override
  public FileIterator list(StorageLocation folder) throws IOException {
    checkAlive();
    FileIterator files = delegate.list(folder);
    return new FileIterator() {
      @Override
      public boolean hasNext() throws IOException {
        checkAlive();
        return files.hasNext();
      }

      @Override
      public FileEntry next() throws IOException {
        checkAlive();
        return files.next();
      }
    };
  }

  @Override
  public byte[] read(StorageLocation file) throws IOException {
    checkAlive();
    return delegate.read(file);
  }

  @Override
  public InputStream open(StorageLocation file) throws IOException {
    checkAlive();
    InputStream in = delegate.open(file);
    return new InputStream() {
      @Override
      public int read() throws IOException {
        checkAlive();
        return in.read();
      }

      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        checkAlive();
        return in.read(b, off, len);
      }

      @Override
      public long skip(long n) throws IOException {
        checkAlive();
        return in.skip(n);
      }

      @Override
      public int available() throws IOException {
        checkAlive();
        return in.available();
      }

      @Override
      public void close() throws IOException {
        in.close();
      }
    };
  }

  @Override
  public void createExclusive(StorageLocation file, byte[] content) throws IOException {
    synchronized (stepLock) {
      checkAlive();
      if (++steps == crashStep) {
        SimulatedCrash crashed = die("createExclusive " + file);
        if (effect == CrashEffect.FULL) {
          try {
            delegate.createExclusive(file, content);
          } catch (IOException e) {
            crashed.addSuppressed(e);
          }
        }
        throw crashed;
      }
      delegate.createExclusive(file, content);
    }
  }

  @Override
  public Optional<AppendableLog> openLog(StorageLocation file) throws IOException {
    checkAlive();
    return delegate.openLog(file).map(FaultInjectingLog::new);
  }

  @Override
  public void deleteAll(Collection<StorageLocation> files) throws IOException {
    List<StorageLocation> ordered = List.copyOf(files);
    synchronized (stepLock) {
      checkAlive();
      int first = steps + 1;
      if (crashStep < first || crashStep >= first + ordered.size()) {
        steps += ordered.size();
        delegate.deleteAll(ordered);
        return;
      }
      int done = crashStep - first;
      steps = crashStep;
      StorageLocation crashing = ordered.get(done);
      IOException failure = null;
      try {
        delegate.deleteAll(ordered.subList(0, done));
        if (effect == CrashEffect.FULL) {
          delegate.deleteAll(List.of(crashing));
        }
      } catch (IOException e) {
        failure = e;
      }
      SimulatedCrash crashed = die("deleteAll at " + crashing);
      if (failure != null) {
        crashed.addSuppressed(failure);
      }
      throw crashed;
    }
  }

  /** Leaves the wrapped storage open: the test inspects it after the crash. */
  @Override
  public void close() {}

  private void checkAlive() throws SimulatedCrash {
    String cause = crash;
    if (cause != null) {
      throw new SimulatedCrash("the process crashed earlier, at " + cause);
    }
  }

  private SimulatedCrash die(String what) {
    crash = "step " + crashStep + " (" + what + ", effect " + effect + ")";
    return new SimulatedCrash("simulated crash at " + crash);
  }

  private final class FaultInjectingLog extends ForwardingAppendableLog {
    FaultInjectingLog(AppendableLog log) {
      super(log);
    }

    @Override
    public void append(byte[] bytes) throws IOException {
      synchronized (stepLock) {
        checkAlive();
        if (++steps == crashStep) {
          byte[] landed =
              switch (effect) {
                case NONE -> new byte[0];
                case TORN ->
                    Arrays.copyOf(bytes, bytes.length == 0 ? 0 : random.nextInt(bytes.length));
                case FULL -> bytes;
              };
          SimulatedCrash crashed =
              die(
                  "append to "
                      + delegate.location()
                      + ", "
                      + landed.length
                      + " of "
                      + bytes.length
                      + " bytes written");
          if (landed.length > 0) {
            try {
              delegate.append(landed);
            } catch (IOException e) {
              crashed.addSuppressed(e);
            }
          }
          throw crashed;
        }
        delegate.append(bytes);
      }
    }
  }
}
