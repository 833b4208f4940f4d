/** A command called the wrong way: its message is printed as it is, with no stack. */
export class UsageError extends Error {}
