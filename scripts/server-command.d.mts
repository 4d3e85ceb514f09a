/** Types of server-command.mjs (plain JavaScript, run by scripts/start.mjs before anything is built). */
export declare const serverBundle: string;
export declare const serverNodeFlags: string[];
