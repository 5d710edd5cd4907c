// The relay's chat page: joins a group over the relay's WebSocket endpoint,
// sends text messages and shows what arrives, with the findings of any
// message the relay refuses. Frames are made and read by the imcodec
// JavaScript implementation, imported by the package's name: index.html's
// import map points it at the files the relay serves from the repository's
// js/ (its browser entry point), and a bundler resolves it through
// js/package.json's "exports" (Tests/Browser/test_relay_chat.py --bundle
// serves the page built so by esbuild).
//
// window.imcodecChat is the page's API, which the buttons use and a test
// can drive (Examples/RelayServer/README.md, "The chat page"):
//   connect(url?)            opens the WebSocket (ws://<host>/frames by default)
//   join(user, group)        sends a join; resolves when the relay echoes it,
//                            rejects with the rejection when it refuses it
//   send(text, {check})      sends one text message; resolves to {msgId, seq}. The page first
//                            validates it against its profile (?profile= in the page's
//                            address, the relay's default sdk-guide without one) and sends
//                            nothing when it finds an error: it shows the findings at once
//                            and resolves to {msgId, seq, findings}. check: false sends
//                            without validating, for the relay to judge
//   refusedHere              messages the page did not send: {msgId, findings}
//   sendBytes(bytes)         sends one binary message as given (a malformed frame)
//   sendText(text)           sends one text message (the relay closes with 1003)
//   messages                 received chat messages: {sender, group, seq, msgId, text}
//   rejections               the relay's replies: {msgId, groupId, findings, omitted}
//   closed                   null, or {code, reason, wasClean} once the socket closed
//   state                    "closed", "connecting" or "open"
//   waitFor(predicate, ms)   resolves when predicate() holds, rejects after ms

import { FrameKind, Message, decodeFramePayload, encodeFrame, webDeflate } from "imcodec";
import { validate } from "imcodec/validate";

const REJECTION = "imcodec-relay.rejection";

// pako, when the relay serves it, reads and writes deflate frames that name
// a dictionary; the platform's Compression Streams read the others.
const deflate = import("./pako.esm.mjs").then(
    (pako) => webDeflate({ pako }),
    () => webDeflate(),
);

const chat = {
    messages: [],
    rejections: [],
    refusedHere: [],
    profile: new URLSearchParams(location.search).get("profile") ?? "sdk-guide",
    closed: null,
    state: "closed",
    user: null,
    group: null,
    socket: null,
    seq: 0,
    // Frames are encoded and decoded one after another, so neither sending
    // nor showing can reorder them.
    sending: Promise.resolve(),
    receiving: Promise.resolve(),
    pendingJoin: null,

    connect(url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/frames`) {
        if (this.socket && this.state !== "closed") return this.opened;
        this.closed = null;
        this.setState("connecting");
        const socket = new WebSocket(url);
        socket.binaryType = "arraybuffer";
        this.socket = socket;
        this.opened = new Promise((resolve, reject) => {
            socket.onopen = () => {
                this.setState("open");
                resolve();
            };
            socket.onclose = (event) => {
                this.closed = { code: event.code, reason: event.reason, wasClean: event.wasClean };
                this.setState("closed", `closed: ${event.code}${event.reason ? ` ${event.reason}` : ""}`);
                this.pendingJoin?.reject(new Error(`the socket closed: ${event.code} ${event.reason}`));
                this.pendingJoin = null;
                reject(new Error(`the socket closed: ${event.code}`));
            };
        });
        socket.onmessage = (event) => {
            if (typeof event.data === "string") return;
            const bytes = new Uint8Array(event.data);
            this.receiving = this.receiving.then(() => this.receive(bytes));
        };
        return this.opened;
    },

    async receive(bytes) {
        let frame;
        try {
            frame = await decodeFramePayload(bytes, { deflate: await deflate });
        } catch (error) {
            this.show("system", `an unreadable frame: ${error.code ?? error}`);
            return;
        }
        if (frame.kind !== FrameKind.message) return;
        const message = frame.value;
        const custom = message.elems.length === 1 && message.elems[0].kind?.case === "custom" ? message.elems[0].kind.value : null;
        if (message.sender === "" && !message.groupId && custom?.desc === REJECTION) {
            const rejection = JSON.parse(new TextDecoder().decode(custom.data));
            this.rejections.push(rejection);
            this.showRejection(rejection);
            if (this.pendingJoin && rejection.msgId === this.pendingJoin.msgId) {
                this.pendingJoin.reject(Object.assign(new Error("the relay refused the join"), { rejection }));
                this.pendingJoin = null;
            }
            return;
        }
        if (message.elems.length === 0) {
            if (this.pendingJoin && message.msgId === this.pendingJoin.msgId) {
                this.pendingJoin.resolve();
                this.pendingJoin = null;
            }
            return;
        }
        const text = message.elems
            .map((elem) => (elem.kind?.case === "text" ? elem.kind.value.text : `[${elem.kind?.case ?? "elem"}]`))
            .join(" ");
        const received = { sender: message.sender, group: message.groupId, seq: Number(message.seq), msgId: message.msgId, text };
        this.messages.push(received);
        this.show("message", text, received.sender);
    },

    async join(user, group) {
        await this.connect();
        this.user = user;
        this.group = group;
        document.getElementById("user").value = user;
        document.getElementById("group").value = group;
        const msgId = `${user}-join-${Date.now()}`;
        const joined = new Promise((resolve, reject) => {
            this.pendingJoin = { msgId, resolve, reject };
        });
        await this.enqueue(Message.create({ msgId, sender: user, groupId: group }));
        await joined;
        this.show("system", `joined ${group} as ${user}`);
        document.getElementById("text").disabled = false;
        document.getElementById("send").disabled = false;
    },

    async send(text, { check = true } = {}) {
        if (this.user === null) throw new Error("join a group first");
        const seq = this.seq++;
        const msgId = `${this.user}-${seq}`;
        const message = Message.create({
            msgId,
            sender: this.user,
            groupId: this.group,
            seq: BigInt(seq),
            timestamp: BigInt(Math.floor(Date.now() / 1000)),
            elems: [{ kind: { case: "text", value: { text } } }],
        });
        if (check) {
            // The relay's rules, applied here: a message it would refuse is not sent.
            const findings = validate(message, Message, this.profile).filter((f) => f.severity === "error");
            if (findings.length > 0) {
                this.refusedHere.push({ msgId, findings });
                this.showRejection({ msgId, findings }, "local");
                return { msgId, seq, findings };
            }
        }
        await this.enqueue(message);
        this.show("message mine", text, this.user);
        return { msgId, seq };
    },

    enqueue(message) {
        const sent = this.sending.then(async () => {
            const frame = await encodeFrame({ kind: FrameKind.message, value: message }, { deflate: await deflate });
            this.socket.send(frame);
        });
        this.sending = sent.catch(() => {});
        return sent;
    },

    sendBytes(bytes) {
        this.socket.send(bytes);
    },

    sendText(text) {
        this.socket.send(text);
    },

    waitFor(predicate, ms = 10000) {
        return new Promise((resolve, reject) => {
            const started = Date.now();
            const poll = () => {
                if (predicate()) return resolve();
                if (Date.now() - started > ms) return reject(new Error("timed out"));
                setTimeout(poll, 10);
            };
            poll();
        });
    },

    setState(state, text) {
        this.state = state;
        const status = document.getElementById("status");
        status.dataset.state = state;
        status.textContent = text ?? (state === "open" ? "connected" : state);
        if (state === "closed") {
            document.getElementById("text").disabled = true;
            document.getElementById("send").disabled = true;
        }
    },

    // The log keeps the last 500 lines; messages and rejections keep all.
    show(kind, text, sender) {
        const log = document.getElementById("log");
        const item = document.createElement("li");
        item.className = kind;
        if (sender !== undefined) {
            const name = document.createElement("span");
            name.className = "sender";
            name.textContent = sender;
            item.append(name);
            item.dataset.sender = sender;
        }
        item.append(document.createTextNode(text));
        log.append(item);
        while (log.children.length > 500) log.firstElementChild.remove();
        log.scrollTop = log.scrollHeight;
    },

    // A refusal: the relay's (with each finding's reason), or this page's own ("local": not sent).
    showRejection(rejection, where = "relay") {
        const log = document.getElementById("log");
        const item = document.createElement("li");
        item.className = where === "local" ? "rejection local" : "rejection";
        item.dataset.msgId = rejection.msgId;
        const verb = where === "local" ? "not sent" : "refused";
        item.append(document.createTextNode(`${verb} ${rejection.msgId || "a frame"}: `));
        rejection.findings.forEach((finding, index) => {
            if (index > 0) item.append(document.createTextNode("; "));
            const code = document.createElement("code");
            code.textContent = finding.code;
            const detail = finding.reason ?? (finding.limit !== undefined ? `limit ${finding.limit}, ${finding.actual}` : "");
            item.append(code, document.createTextNode(`${finding.path ? ` at ${finding.path}` : ""}${detail ? ` (${detail})` : ""}`));
        });
        log.append(item);
        log.scrollTop = log.scrollHeight;
    },
};

window.imcodecChat = chat;

document.getElementById("join-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const user = document.getElementById("user").value.trim();
    const group = document.getElementById("group").value.trim();
    chat.join(user, group).catch((error) => chat.show("system", error.message));
});

document.getElementById("send-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const input = document.getElementById("text");
    if (input.value === "") return;
    chat.send(input.value).catch((error) => chat.show("system", error.message));
    input.value = "";
});
