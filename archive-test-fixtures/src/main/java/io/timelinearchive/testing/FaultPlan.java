package io.timelinearchive.testing;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.util.Objects.requireNonNull;

import io.timelinearchive.testing.FaultProxy.Action;
import io.timelinearchive.testing.FaultProxy.Fault;
import io.timelinearchive.testing.FaultProxy.Request;
import io.timelinearchive.testing.FaultProxy.Rule;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/** What a {@link FaultProxy} does to each request: its rules, its hooks and its rewrite. */
final class FaultPlan {
  private final List<Rule> rules = new CopyOnWriteArrayList<>();
  private final List<Hook> hooks = new CopyOnWriteArrayList<>();
  private volatile Rewrite rewrite;

  private record Hook(Predicate<Request> when, Action action, AtomicInteger remaining) {}

  private record Rewrite(Predicate<Request> which, UnaryOperator<String> rewrite) {}

  void replaceRules(Rule rule) {
    rules.clear();
    rules.add(rule);
  }

  void addRule(Rule rule) {
    rules.add(rule);
  }

  void addHook(Predicate<Request> when, Action action) {
    hooks.add(new Hook(when, action, new AtomicInteger(1)));
  }

  void rewrite(Predicate<Request> which, UnaryOperator<String> rewrite) {
    this.rewrite = new Rewrite(which, rewrite);
  }

  /** The first fault a rule chooses for {@code request}, or forwarding. */
  Fault decide(Request request) {
    for (Rule rule : rules) {
      Fault fault = requireNonNull(rule.decide(request), "a rule answered null");
      if (fault.kind() != Fault.Kind.FORWARD) {
        return fault;
      }
    }
    return Fault.FORWARD;
  }

  /** The request to forward: as received, or with its content rewritten and its length anew. */
  Request rewritten(Request request) {
    Rewrite current = rewrite;
    if (current == null || !current.which().test(request)) {
      return request;
    }
    byte[] raw =
        HttpMessages.isChunked(request.head())
            ? HttpMessages.unchunked(request.body())
            : request.body();
    byte[] content = current.rewrite().apply(new String(raw, ISO_8859_1)).getBytes(ISO_8859_1);
    String head =
        HttpMessages.withoutHeader(
            HttpMessages.withoutHeader(request.head(), "transfer-encoding"), "content-length");
    head = head.substring(0, head.length() - 2) + "Content-Length: " + content.length + "\r\n\r\n";
    return new Request(request.method(), request.target(), head, content);
  }

  void runHooks(Request request) {
    for (Hook hook : hooks) {
      if (hook.when().test(request) && hook.remaining().getAndUpdate(n -> n > 0 ? n - 1 : 0) > 0) {
        try {
          hook.action().run();
        } catch (Exception e) {
          throw new IllegalStateException(
              "hook failed for " + request.method() + " " + request.target(), e);
        }
      }
    }
  }
}
