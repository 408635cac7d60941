export function withLeadingSlash(input = ""): string {
  return input.startsWith("/") ? input : "/" + input;
}
