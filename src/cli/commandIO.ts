/** What a command writes to: its standard output and error (tests capture them). */
export interface CommandIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}
