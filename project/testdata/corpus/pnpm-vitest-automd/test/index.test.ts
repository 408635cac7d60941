import { expect, it } from "vitest";
import { withLeadingSlash } from "../src";

it("adds a slash", () => {
  expect(withLeadingSlash("a")).toBe("/a");
});
