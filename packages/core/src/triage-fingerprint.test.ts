import { describe, expect, it } from "vitest";
import {
  fingerprintFailure,
  isGenericAssertion,
  normaliseMessage,
  topOwnFrame,
} from "./triage-fingerprint.js";

// Error texts as the real reporters wrote them in apps/server/test/fixtures.
const ESC = String.fromCharCode(27);
const PLAYWRIGHT_MESSAGE =
  `Error: division by zero should be finite\n\n${ESC}[2mexpect(${ESC}[22m${ESC}[31mreceived${ESC}[39m${ESC}[2m).${ESC}[22mtoBe${ESC}[2m(${ESC}[22m${ESC}[32mexpected${ESC}[39m${ESC}[2m) // Object.is equality${ESC}[22m\n\n` +
  `Expected: ${ESC}[32m0${ESC}[39m\nReceived: ${ESC}[31mInfinity${ESC}[39m\n\n  21 |     test("divides by zero", async () => {\n> 23 |         expect(1 / 0).toBe(0);\n     |                       ^\n    at /tmp/gen-json/playwright/tests/calculator.spec.ts:23:60`;
const MOCHA_STACK =
  "AssertionError [ERR_ASSERTION]: quantity must be positive\n\nfalse !== true\n\n    at Context.<anonymous> (test/cart.spec.js:10:14)\n    at process.processImmediate (node:internal/timers:483:21)";
const JAVA_STACK =
  "org.opentest4j.AssertionFailedError: expected: <80> but was: <90>\n\tat org.junit.jupiter.api.AssertionUtils.fail(AssertionUtils.java:55)\n\tat com.example.CartTest.appliesDiscount(CartTest.java:31)\n\tat java.base/java.lang.reflect.Method.invoke(Method.java:580)";
const CUCUMBER_MESSAGE =
  "Error: cannot remove 3 items from a cart of 1\n    at World.<anonymous> (/tmp/gen-json/cucumber/features/step_definitions/steps.js:24:33)";

describe("normaliseMessage: each volatile value becomes a placeholder", () => {
  it("numbers", () => {
    expect(normaliseMessage("expected 200 but got 500 for /api/orders/1234")).toBe(
      "expected <n> but got <n> for /api/orders/<n>",
    );
  });
  it("hex ids and addresses", () => {
    expect(normaliseMessage("session 5f3a9c0de12b not found at 0x7ffde4a1")).toBe(
      "session <hex> not found at <hex>",
    );
  });
  it("UUIDs (Allure's result ids)", () => {
    expect(normaliseMessage("no result 2b692214-8f94-4a42-8e8a-2e5f5f295da8 in store")).toBe(
      "no result <uuid> in store",
    );
    // No digit in it: the rules that need one are skipped, this one is not.
    expect(normaliseMessage("no result abcdefab-cdef-abcd-efab-cdefabcdefab in store")).toBe(
      "no result <uuid> in store",
    );
  });
  it("IPv4 and IPv6 addresses with their ports", () => {
    expect(normaliseMessage("connect ECONNREFUSED 127.0.0.1:5432")).toBe(
      "connect ECONNREFUSED <ip>",
    );
    expect(normaliseMessage("connect ECONNREFUSED ::1:5432")).toBe("connect ECONNREFUSED <ip>");
  });
  it("timestamps", () => {
    expect(normaliseMessage("token expired at 2026-11-28T23:01:07.123Z (now 23:05:01)")).toBe(
      "token expired at <time> (now <time>)",
    );
  });
  it("durations", () => {
    expect(normaliseMessage("Test timeout of 30000ms exceeded.")).toBe(
      "Test timeout of <duration> exceeded.",
    );
    expect(normaliseMessage("Timed out after 31s waiting")).toBe(
      "Timed out after <duration> waiting",
    );
  });
  it("ports of host names", () => {
    expect(normaliseMessage("GET http://localhost:39211/api/cart failed")).toBe(
      "GET http://localhost:<port>/api/cart failed",
    );
  });
  it("temporary paths, keeping their last segments", () => {
    expect(normaliseMessage("cannot read /tmp/gen-json/ctrf/tests/calculator.spec.ts")).toBe(
      "cannot read <tmp>/tests/calculator.spec.ts",
    );
    expect(normaliseMessage("missing C:\\agent\\_work\\7\\s\\specs\\login.e2e.ts")).toBe(
      "missing <tmp>/specs/login.e2e.ts",
    );
  });
  it("absolute paths, keeping their last segments", () => {
    expect(normaliseMessage("ENOENT: open '/home/ci/build/app/fixtures/user.json'")).toBe(
      "ENOENT: open '<path>/fixtures/user.json'",
    );
  });
  it("line:column after a file", () => {
    expect(normaliseMessage("SyntaxError in specs/login.e2e.ts:40:11")).toBe(
      "SyntaxError in specs/login.e2e.ts",
    );
  });
  it("colour codes and Playwright's code excerpt", () => {
    const out = normaliseMessage(PLAYWRIGHT_MESSAGE);
    expect(out).not.toContain(ESC);
    expect(out).not.toContain("test(");
    expect(out).toContain("Expected: <n> Received: Infinity");
  });
});

describe("isGenericAssertion", () => {
  it("is true for assertion forms with only values", () => {
    expect(isGenericAssertion("expected <n>, got <n>")).toBe(true);
    expect(isGenericAssertion("expected: <PAID> but was: <DECLINED>")).toBe(true);
    expect(isGenericAssertion("Expected values to be strictly equal: <n> !== <n>")).toBe(true);
  });
  it("is false when words say what was checked", () => {
    expect(isGenericAssertion("quantity must be positive false !== true")).toBe(false);
    expect(isGenericAssertion("expected <n> but got <n> for /api/orders/<n>")).toBe(false);
  });
});

describe("topOwnFrame", () => {
  it("skips runtime frames and keeps the project's, without line numbers", () => {
    expect(topOwnFrame(MOCHA_STACK)).toBe("Context.<anonymous> (test/cart.spec.js)");
  });
  it("skips JUnit's and the JDK's frames", () => {
    expect(topOwnFrame(JAVA_STACK)).toBe("com.example.CartTest.appliesDiscount");
  });
  it("skips node_modules and shortens temp paths", () => {
    const stack =
      "Error: x\n    at Object.fn (/ci/app/node_modules/chai/lib/assert.js:10:3)\n    at helpers.fetchOrder (/tmp/w1/src/api/helpers.ts:88:9)";
    expect(topOwnFrame(stack)).toBe("helpers.fetchOrder (api/helpers.ts)");
  });
  it("reads Python frames", () => {
    const stack =
      'Traceback (most recent call last):\n  File "/usr/lib/python3.12/site-packages/_pytest/python.py", line 9, in call\n  File "/home/ci/tests/test_cart.py", line 12, in test_total\nAssertionError';
    expect(topOwnFrame(stack)).toBe("tests/test_cart.py in test_total");
  });
});

describe("fingerprintFailure", () => {
  it("takes the type from the name, or the message's prefix", () => {
    expect(
      fingerprintFailure({
        stack: MOCHA_STACK,
        message: "quantity must be positive\n\nfalse !== true\n",
      }).errorType,
    ).toBe("AssertionError");
    const java = fingerprintFailure({
      name: "org.opentest4j.AssertionFailedError",
      message: "expected: <80> but was: <90>",
      stack: JAVA_STACK,
    });
    expect(java.errorType).toBe("org.opentest4j.AssertionFailedError");
    expect(java.frame).toBe("com.example.CartTest.appliesDiscount");
  });

  it("keeps the values of a generic assertion: two different assertions are two causes", () => {
    const a = fingerprintFailure({ message: "expected: <PAID> but was: <DECLINED>" });
    const b = fingerprintFailure({ message: "expected: <PAID> but was: <TIMEOUT>" });
    expect(a.key).not.toBe(b.key);
    expect(fingerprintFailure({ message: "expected 200, got 500" }).message).toBe(
      "expected 200, got 500",
    );
  });

  it("one cause when only values differ (Cucumber's message with its stack inside)", () => {
    const a = fingerprintFailure({ message: CUCUMBER_MESSAGE });
    const b = fingerprintFailure({
      message: CUCUMBER_MESSAGE.replace("remove 3", "remove 7")
        .replace("gen-json", "gen-9")
        .replace(":24:33", ":25:1"),
    });
    expect(a.key).toBe(b.key);
    expect(a.message).toBe("cannot remove <n> items from a cart of <n>");
    expect(a.frame).toBe("World.<anonymous> (step_definitions/steps.js)");
  });

  it("twelve tests failing through one helper are one cause", () => {
    const keys = new Set(
      [1, 2, 3].map(
        (n) =>
          fingerprintFailure({
            message: `expected 200 but got 500 for /api/orders/${n * 1000}`,
            stack: `Error: expected 200 but got 500\n    at fetchOrder (/tmp/run${n}/src/orders.ts:${n}:4)`,
          }).key,
      ),
    );
    expect(keys.size).toBe(1);
  });

  it("the same message from two of the project's functions is two causes", () => {
    const a = fingerprintFailure({
      message: "boom",
      stack: "Error: boom\n    at a (src/a.ts:1:1)",
    });
    const b = fingerprintFailure({
      message: "boom",
      stack: "Error: boom\n    at b (src/b.ts:1:1)",
    });
    expect(a.key).not.toBe(b.key);
  });

  it("Playwright's message: the prefix, colours and excerpt gone, the frame kept", () => {
    const fp = fingerprintFailure({ message: PLAYWRIGHT_MESSAGE, stack: PLAYWRIGHT_MESSAGE });
    expect(fp.errorType).toBe("Error");
    expect(fp.message.startsWith("division by zero should be finite")).toBe(true);
    expect(fp.frame).toBe("tests/calculator.spec.ts");
  });
});
