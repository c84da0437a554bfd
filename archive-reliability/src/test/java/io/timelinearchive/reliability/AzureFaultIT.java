package io.timelinearchive.reliability;

import io.timelinearchive.testing.FaultProxy.Fault;
import io.timelinearchive.testing.FaultProxy.Request;

/**
 * Store faults on Azurite. The proxy keeps the account's path-style endpoint; Shared Key signatures
 * do not cover the host and port, so the forwarded requests stay valid.
 */
class AzureFaultIT extends AbstractFaultIT {
  @Override
  Store store() {
    return Store.azure();
  }

  /**
   * The short form's cases without the three that cost Azure a minute or more each, as its SDK
   * backs off 4 s, 8 s, 16 s between tries (instant reads dropped, every 4th request failing, every
   * delete after the first 10 failing), and with a lost delete answer instead.
   */
  @Override
  boolean inShortForm(String name, boolean marked) {
    return name.equals("a delete forwarded, its answer dropped, once")
        || (marked
            && !name.startsWith("instant reads dropped")
            && !name.startsWith("every 4th")
            && !name.startsWith("500 on every delete"));
  }

  @Override
  String endpointKey() {
    return "azure.endpoint";
  }

  @Override
  Fault error(int status) {
    return Fault.respond(
        status,
        switch (status) {
          case 503 -> "ServerBusy";
          case 429 -> "TooManyRequests";
          default -> "InternalError";
        });
  }

  // creating a blob (block or append blob), and each appended block
  @Override
  boolean write(Request r) {
    return r.method().equals("PUT");
  }

  @Override
  boolean list(Request r) {
    return r.method().equals("GET") && r.query().contains("comp=list");
  }

  // single deletes, or a blob batch of them
  @Override
  boolean delete(Request r) {
    return r.method().equals("DELETE")
        || (r.method().equals("POST") && r.query().contains("comp=batch"));
  }
}
