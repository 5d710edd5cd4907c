#!/usr/bin/env python3
"""Writes the large JSON documents scripts/bench/json_memory.sh measures
imcodec encode and validate on (docs/PERFORMANCE-INVESTIGATIONS.md, "JSON input").

    python3 scripts/bench/json_memory_documents.py FOLDER
"""
import os
import sys

work = sys.argv[1]

def write(name, parts):
    with open(os.path.join(work, name), "w") as f:
        for part in parts:
            f.write(part)

def joined(item, count):
    # The entries a chunk at a time, so Python's own memory stays small.
    chunk = 10_000
    done = 0
    while done < count:
        n = min(chunk, count - done)
        yield ("," if done else "") + ",".join([item] * n)
        done += n

text = '{"text":{"text":"hello"}}'
rest_text = '{"MsgType":"TIMTextElem","MsgContent":{"Text":"hello"}}'
# A message of 1,000,000 text elems: past maxElems (1,000).
write("message-1m-elems.json", ['{"sender":"alice","receiver":"bob","elems":[', *joined(text, 1_000_000), "]}"])
# 10,000,000 empty @-entries in 30 MB: past maxRepeated (10,000).
write("message-10m-at-entries.json",
      ['{"sender":"alice","groupId":"g","elems":[{"text":{"text":"@"}}],"atUserList":[', *joined('""', 10_000_000), "]}"])
# A batch of 1,000 messages of 1,000 text elems: within every count limit;
# its 11 MB payload is past maxFrameBytes (4 MiB), so encode refuses the frame.
message = '{"sender":"alice","receiver":"bob","elems":[' + ",".join([text] * 1_000) + "]}"
write("batch-1k-by-1k-text.json", ['{"messages":[', *joined(message, 1_000), "]}"])
# The same shape with empty elems: 3 MB of JSON, a million findings.
message = '{"sender":"alice","receiver":"bob","elems":[' + ",".join(["{}"] * 1_000) + "]}"
write("batch-1k-by-1k-empty.json", ['{"messages":[', *joined(message, 1_000), "]}"])
# One message of a 60 MB text: within the limits, past the frame's.
write("message-60mb-text.json", ['{"sender":"alice","receiver":"bob","elems":[{"text":{"text":"', "x" * 60_000_000, '"}}]}'])
# A document a few bytes past maxDocumentBytes (64 MiB).
write("message-past-document-size.json",
      ['{"sender":"alice","receiver":"bob","elems":[{"text":{"text":"', "x" * (64 * 1_048_576 - 61), '"}}]}'])
# REST: a MsgBody of 1,000,000 text elements (past maxElems), and a MsgList
# of 1,000 messages of 1,000 (within the limits, past the frame's).
write("rest-msgbody-1m.json", ["[", *joined(rest_text, 1_000_000), "]"])
rest_message = '{"From_Account":"alice","To_Account":"bob","MsgBody":[' + ",".join([rest_text] * 1_000) + "]}"
write("rest-msglist-1k-by-1k.json", ['{"MsgList":[', *joined(rest_message, 1_000), "]}"])
# 99 relays nested in one another (within maxDepth, 100), each with its
# MsgContent ahead of its MsgType, around 1,000 forwarded messages of 1,000
# text elements: every relay's content is stepped over to find its type,
# in one step each, so the time stays linear in the document.
forwarded = '{"From_Account":"alice","To_Account":"bob","MsgSeq":1,"MsgRandom":1,"MsgTimeStamp":1,"MsgBody":['
relay_keys = '"Title":"history","AbstractList":["alice: hello"],"CompatibleText":"[history]",'
inner = ('{' + relay_keys + '"MsgNum":1000,"MsgList":['
         + ",".join([forwarded + ",".join([rest_text] * 1_000) + "]}"] * 1_000) + "]}")
relay = inner
for _ in range(98):
    relay = '{"MsgContent":' + relay + ',"MsgType":"TIMRelayElem"}'
    relay = '{' + relay_keys + '"MsgNum":1,"MsgList":[' + forwarded + relay + "]}]}"
write("rest-100-relays.json", ['{"From_Account":"alice","To_Account":"bob","MsgBody":[{"MsgContent":',
                               relay, ',"MsgType":"TIMRelayElem"}]}'])
# The same message as the one message of a message list.
write("rest-msglist-100-relays.json", ['{"MsgList":[{"From_Account":"alice","To_Account":"bob","MsgBody":[{"MsgContent":',
                                       relay, ',"MsgType":"TIMRelayElem"}]}]}'])
