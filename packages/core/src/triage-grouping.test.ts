import { describe, expect, it } from "vitest";
import { fingerprintFailure, type FailureText } from "./triage-fingerprint.js";

/**
 * Grouping quality on a labelled set (docs/performance.md, "Triage"): error texts of the real
 * reporters' fixtures (apps/server/test/fixtures) and variants that differ only in values. Each
 * entry's label is its cause; precision and recall are of "same cause" over every pair.
 */
const ESC = String.fromCharCode(27);
const pw = (expected: string, received: string, line: number, dir: string) =>
  `Error: ${ESC}[2mexpect(${ESC}[22m${ESC}[31mreceived${ESC}[39m${ESC}[2m).${ESC}[22mtoBe${ESC}[2m(${ESC}[22m${ESC}[32mexpected${ESC}[39m${ESC}[2m) // Object.is equality${ESC}[22m\n\nExpected: ${ESC}[32m${expected}${ESC}[39m\nReceived: ${ESC}[31m${received}${ESC}[39m\n    at /tmp/${dir}/playwright/tests/calculator.spec.ts:${line}:27`;

const LABELLED: [string, FailureText][] = [
  // Playwright JSON: a generic toBe keeps its values; checkouts and line numbers vary
  ["pw-round", { message: pw("2", "3", 48, "gen-json"), stack: pw("2", "3", 48, "gen-json") }],
  ["pw-round", { message: pw("2", "3", 49, "w-77"), stack: pw("2", "3", 49, "w-77") }],
  ["pw-retry", { message: pw("1", "0", 43, "gen-json"), stack: pw("1", "0", 43, "gen-json") }],
  // JUnit (Surefire): generic assertions with different values are different assertions
  [
    "junit-paid-declined",
    {
      name: "org.opentest4j.AssertionFailedError",
      message: "expected: <PAID> but was: <DECLINED>",
      stack:
        "org.opentest4j.AssertionFailedError: expected: <PAID> but was: <DECLINED>\n\tat com.example.CartTest.chargesCard(CartTest.java:51)",
    },
  ],
  [
    "junit-paid-declined",
    {
      name: "org.opentest4j.AssertionFailedError",
      message: "expected: <PAID> but was: <DECLINED>",
      stack:
        "org.opentest4j.AssertionFailedError: expected: <PAID> but was: <DECLINED>\n\tat com.example.CartTest.chargesCard(CartTest.java:53)",
    },
  ],
  [
    "junit-paid-timeout",
    {
      name: "org.opentest4j.AssertionFailedError",
      message: "expected: <PAID> but was: <TIMEOUT>",
      stack:
        "org.opentest4j.AssertionFailedError: expected: <PAID> but was: <TIMEOUT>\n\tat com.example.CartTest.chargesCard(CartTest.java:51)",
    },
  ],
  [
    "junit-npe",
    {
      name: "java.lang.NullPointerException",
      message: 'Cannot invoke "Mailer.send()" because "mailer" is null',
      stack: "java.lang.NullPointerException\n\tat com.example.Notifier.notify(Notifier.java:14)",
    },
  ],
  [
    "junit-npe",
    {
      name: "java.lang.NullPointerException",
      message: 'Cannot invoke "Mailer.send()" because "mailer" is null',
      stack: "java.lang.NullPointerException\n\tat com.example.Notifier.notify(Notifier.java:19)",
    },
  ],
  [
    "junit-refused",
    { name: "java.net.ConnectException", message: "Connection refused: localhost/127.0.0.1:5432" },
  ],
  [
    "junit-refused",
    { name: "java.net.ConnectException", message: "Connection refused: localhost/10.0.3.7:6543" },
  ],
  // Mocha / node:assert
  [
    "mocha-qty",
    {
      stack:
        "AssertionError [ERR_ASSERTION]: quantity must be positive\n\nfalse !== true\n\n    at Context.<anonymous> (test/cart.spec.js:10:14)\n    at process.processImmediate (node:internal/timers:483:21)",
      message: "quantity must be positive\n\nfalse !== true\n",
    },
  ],
  [
    "mocha-qty",
    {
      stack:
        "AssertionError [ERR_ASSERTION]: quantity must be positive\n\nfalse !== true\n\n    at Context.<anonymous> (test/cart.spec.js:11:9)\n    at process.processImmediate (node:internal/timers:491:21)",
      message: "quantity must be positive\n\nfalse !== true\n",
    },
  ],
  [
    "mocha-3-4",
    {
      stack:
        "AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:\n\n3 !== 4\n\n    at Context.<anonymous> (test-namesakes/retry-rules.spec.js:18:12)",
      message: "Expected values to be strictly equal:\n\n3 !== 4\n",
    },
  ],
  [
    "mocha-5-4",
    {
      stack:
        "AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:\n\n5 !== 4\n\n    at Context.<anonymous> (test-namesakes/retry-rules.spec.js:18:12)",
      message: "Expected values to be strictly equal:\n\n5 !== 4\n",
    },
  ],
  [
    "mocha-payment",
    {
      stack:
        "Error: payment service unavailable\n    at Context.<anonymous> (test/cart.spec.js:24:13)",
      message: "payment service unavailable",
    },
  ],
  // Cucumber: the stack inside the message; values and temp folders vary
  [
    "cucumber-remove",
    {
      message:
        "Error: cannot remove 3 items from a cart of 1\n    at World.<anonymous> (/tmp/gen-json/cucumber/features/step_definitions/steps.js:24:33)",
    },
  ],
  [
    "cucumber-remove",
    {
      message:
        "Error: cannot remove 12 items from a cart of 4\n    at World.<anonymous> (/tmp/ci-991/cucumber/features/step_definitions/steps.js:24:33)",
    },
  ],
  // CTRF / WebdriverIO
  [
    "ctrf-banner",
    {
      message: "timeout waiting for the lock banner",
      stack: "Error: timeout waiting for the lock banner\n    at specs/login.e2e.ts:40:11",
    },
  ],
  [
    "ctrf-banner",
    {
      message: "timeout waiting for the lock banner",
      stack: "Error: timeout waiting for the lock banner\n    at specs/login.e2e.ts:41:3",
    },
  ],
  [
    "ctrf-500",
    {
      message: "expected 200, got 500",
      stack: "AssertionError: expected 200, got 500\n    at specs/reset.e2e.ts:12:5",
    },
  ],
  [
    "ctrf-404",
    {
      message: "expected 200, got 404",
      stack: "AssertionError: expected 200, got 404\n    at specs/reset.e2e.ts:12:5",
    },
  ],
  // Allure (interleaved browsers): same words, different browsers are different causes
  [
    "allure-chrome",
    {
      message: "chrome: the card form was not ready",
      stack:
        "Error: chrome: the card form was not ready\n    at Context.<anonymous> (file:///tmp/s27-ops-gen-allure/test-interleaved/chrome.spec.js:16:28)",
    },
  ],
  [
    "allure-chrome",
    {
      message: "chrome: the card form was not ready",
      stack:
        "Error: chrome: the card form was not ready\n    at Context.<anonymous> (file:///tmp/other-9/test-interleaved/chrome.spec.js:16:28)",
    },
  ],
  [
    "allure-firefox",
    {
      message: "firefox: the card was declined",
      stack:
        "Error: firefox: the card was declined\n    at Context.<anonymous> (file:///tmp/s27-ops-gen-allure/test-interleaved/firefox.spec.js:20:11)",
    },
  ],
  // values that vary between occurrences of one cause
  [
    "orders-500",
    { message: "expected 200 but got 500 for /api/orders/1234 (request 5f3a9c0de12b44aa)" },
  ],
  [
    "orders-500",
    { message: "expected 200 but got 500 for /api/orders/98 (request 0c1d2e3f4a5b6c7d)" },
  ],
  ["timeout", { message: "Test timeout of 30000ms exceeded while waiting for #checkout" }],
  ["timeout", { message: "Test timeout of 45000ms exceeded while waiting for #checkout" }],
  [
    "token",
    { message: "token 7c9e6679-7425-40de-944b-e07fc1f90ae7 expired at 2026-11-28T02:01:07Z" },
  ],
  [
    "token",
    { message: "token 16fd2706-8baf-433b-82eb-8c7fada847da expired at 2026-11-29T04:11:57Z" },
  ],
];

function pairScores(entries: readonly [string, FailureText][]) {
  const keys = entries.map(([, text]) => fingerprintFailure(text).key);
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (let i = 0; i < entries.length; i++) {
    for (let j = i + 1; j < entries.length; j++) {
      const same = entries[i]?.[0] === entries[j]?.[0];
      const grouped = keys[i] === keys[j];
      if (same && grouped) tp++;
      else if (grouped) fp++;
      else if (same) fn++;
    }
  }
  return { tp, fp, fn, precision: tp / (tp + fp), recall: tp / (tp + fn) };
}

describe("grouping quality on the labelled set", () => {
  it("puts values-only variants in one group and never two different assertions together", () => {
    const scores = pairScores(LABELLED);
    expect(LABELLED).toHaveLength(30);
    expect(new Set(LABELLED.map(([label]) => label)).size).toBe(19);
    expect(scores).toMatchObject({ tp: 11, precision: 1, recall: 1 });
    expect(scores.fp).toBe(0);
    expect(scores.fn).toBe(0);
  });
});
