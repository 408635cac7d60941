import { expect, it } from "vitest";
import { title } from "./main";

it("names the app", () => {
  expect(title).toBe("web");
});
