export const title = "web";
