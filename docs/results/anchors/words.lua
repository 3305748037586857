-- wrk script: GET /d/{word}, the word drawn uniformly at random from a file of words, one per line
-- (the load client's built-in list: BuiltInWords.java beside this script prints it), each wrk
-- thread with its own random sequence. From the repository root, after a build:
--   java -cp nio-server/target/tickwork-server.jar docs/results/anchors/BuiltInWords.java > /tmp/words.txt
--   wrk -t2 -c100 -d10s -s docs/results/anchors/words.lua http://127.0.0.1:9090 -- /tmp/words.txt
local words = {}

init = function(args)
  local path = args[1] or error("usage: wrk ... -s words.lua URL -- WORD_FILE")
  for line in io.lines(path) do
    if line ~= "" then words[#words + 1] = line end
  end
  if #words == 0 then error("no words in " .. path) end
  -- a table's address differs per thread: the two threads draw different sequences
  math.randomseed(os.time() + tonumber(tostring({}):match("0x(%x+)"), 16) % 1000003)
end

request = function()
  return wrk.format(nil, "/d/" .. words[math.random(#words)])
end
