-- mlirbc.lua: edit MLIR bytecode (*.mlirbc) in Neovim as MLIR text, through the mlirbc language server.
--
-- Neovim 0.7 or newer.  Put this file on 'runtimepath' as lua/mlirbc.lua (for example
-- ~/.config/nvim/lua/mlirbc.lua) and call, from init.lua:
--
--   require("mlirbc").setup({ cmd = { "mlirbc-lsp" } })
--
-- What it does (see docs/neovim.md):
--   * starts `mlirbc-lsp` once (the command is configurable) and keeps one client for all files;
--   * BufReadCmd *.mlirbc: asks the server for the text view (mlir/convertFromBytecode), fills the
--     buffer, sets filetype `mlir` and attaches the client, which sends didOpen of the file: URI and
--     then didChange as you edit: hover, go-to-definition, diagnostics etc. work as usual;
--   * BufWriteCmd *.mlirbc: asks the server to encode its copy of the view (mlir/convertToBytecode),
--     base64-decodes the answer and writes the bytes atomically (temporary file in the same folder,
--     fsync, rename).  A refused encode is shown as an error and the file is not touched; the buffer
--     is marked unmodified only after a successful write of the buffer's own file.  Writing part of
--     a buffer (:1,3w x.mlirbc) or appending (:w >> x.mlirbc) is refused.
--   * :MlirbcInfo shows `mlirbc/info` for the current file.

local M = {}

local uv = vim.loop
local has_011 = vim.fn.has("nvim-0.11") == 1

M.config = {
  cmd = { "mlirbc-lsp" }, -- command (list) that starts the server on stdio
  cmd_env = nil, -- extra environment for it, e.g. { PYTHONPATH = "/src/mlirbc/server" }
  settings = {}, -- mlirbc settings (docs/lsp.md), e.g. { output = { version = 6 } }
  filetype = "mlir",
  timeout_ms = 300000, -- how long a conversion may take before the editor gives up waiting
  pattern = "*.mlirbc",
  on_attach = nil, -- function(client, bufnr), as for any LSP client
  capabilities = nil,
}

M.client_id = nil
M.last_error = nil -- text of the last error shown (handy for scripts and tests)

-- Client methods are called with ':' from Neovim 0.11 on and with '.' before.
local function call(client, method, ...)
  if has_011 then
    return client[method](client, ...)
  end
  return client[method](...)
end

local function report(msg, level)
  level = level or vim.log.levels.ERROR
  if level >= vim.log.levels.ERROR then
    M.last_error = msg
  end
  vim.notify("mlirbc: " .. msg, level)
end

-- base64 ----------------------------------------------------------------------------------------

local B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
local B64_VALUE = {}
for i = 1, #B64 do
  B64_VALUE[B64:byte(i)] = i - 1
end

--- Decodes standard base64 in plain Lua (for Neovim before 0.10, which has no vim.base64).
--- Returns the bytes, or nil and a message.
function M.base64_decode_lua(s)
  local n = #s
  if n % 4 ~= 0 then
    return nil, "invalid base64 from the server (length " .. n .. ")"
  end
  local byte, char, floor = string.byte, string.char, math.floor
  local unpack = table.unpack or unpack
  local parts, buf, k = {}, {}, 0
  for i = 1, n, 4 do
    local a, b, c, d = byte(s, i, i + 3)
    local va, vb, vc, vd = B64_VALUE[a], B64_VALUE[b], B64_VALUE[c], B64_VALUE[d]
    local count = 3
    if i + 3 == n and d == 61 then -- '=' padding, only in the last quad
      vd, count = 0, 2
      if c == 61 then
        vc, count = 0, 1
      end
    end
    if va == nil or vb == nil or vc == nil or vd == nil then
      return nil, "invalid base64 from the server (at character " .. i .. ")"
    end
    local x = va * 262144 + vb * 4096 + vc * 64 + vd
    buf[k + 1] = floor(x / 65536)
    buf[k + 2] = floor(x / 256) % 256
    buf[k + 3] = x % 256
    k = k + count
    if k >= 3000 then
      parts[#parts + 1] = char(unpack(buf, 1, k))
      k = 0
    end
  end
  parts[#parts + 1] = char(unpack(buf, 1, k))
  return table.concat(parts)
end

--- Decodes standard base64 (vim.base64 where Neovim has it, 0.10+; plain Lua otherwise).
function M.base64_decode(s)
  s = s:gsub("%s", "")
  if vim.base64 == nil then
    return M.base64_decode_lua(s)
  end
  local ok, out = pcall(vim.base64.decode, s)
  if ok then
    return out
  end
  return nil, "invalid base64 from the server: " .. tostring(out)
end

-- files -----------------------------------------------------------------------------------------

--- Writes `data` to `path` atomically: a temporary file in the same folder (with the permissions of
--- the file it replaces), fsync, rename.  Returns true, or nil and a message; on failure `path` is
--- untouched and the temporary file removed.
function M.write_atomic(path, data)
  local dir = vim.fn.fnamemodify(path, ":h")
  local tmp = string.format("%s/.%s.%d.%d.tmp", dir, vim.fn.fnamemodify(path, ":t"), uv.os_getpid(),
    uv.hrtime())
  local st = uv.fs_stat(path)
  local mode = st and (st.mode % 4096) or 420 -- 0644 for a new file
  local fd, err = uv.fs_open(tmp, "wx", mode)
  if not fd then
    return nil, "cannot create " .. tmp .. ": " .. tostring(err)
  end
  local function fail(msg)
    uv.fs_close(fd)
    uv.fs_unlink(tmp)
    return nil, msg
  end
  local done = 0
  while done < #data do
    local written, werr = uv.fs_write(fd, done == 0 and data or data:sub(done + 1), done)
    if not written or written <= 0 then
      return fail("cannot write " .. tmp .. ": " .. tostring(werr))
    end
    done = done + written
  end
  local synced, serr = uv.fs_fsync(fd)
  if not synced then
    return fail("cannot sync " .. tmp .. ": " .. tostring(serr))
  end
  uv.fs_close(fd)
  if st then
    uv.fs_chmod(tmp, mode) -- the umask may have narrowed it
  end
  local renamed, rerr = os.rename(tmp, path)
  if not renamed then
    uv.fs_unlink(tmp)
    return nil, "cannot replace " .. path .. ": " .. tostring(rerr)
  end
  return true
end

-- client ----------------------------------------------------------------------------------------

local function client_alive(client)
  if client == nil then
    return false
  end
  return not call(client, "is_stopped")
end

--- The running client, started on first use; nil and a message if the server cannot start.
function M.client()
  local client = M.client_id and vim.lsp.get_client_by_id(M.client_id)
  if client_alive(client) then
    return client
  end
  local cfg = M.config
  local cmd = type(cfg.cmd) == "string" and { cfg.cmd } or cfg.cmd
  if vim.fn.executable(cmd[1]) ~= 1 then
    return nil, "cannot start the language server: `" .. cmd[1] .. "` is not executable "
      .. "(install mlirbc, or set cmd in require('mlirbc').setup{})"
  end
  local settings = next(cfg.settings or {}) ~= nil and cfg.settings or vim.empty_dict()
  local lsp_config = {
    name = "mlirbc",
    cmd = cmd,
    cmd_env = cfg.cmd_env,
    root_dir = uv.cwd(),
    init_options = settings,
    settings = { mlirbc = settings },
    capabilities = cfg.capabilities,
    on_attach = cfg.on_attach,
    -- incremental sync: each change is sent as the range it replaced (Neovim 0.7's default, kept
    -- explicit), so the server re-reads only the op an edit is in
    flags = { debounce_text_changes = 150, allow_incremental_sync = true },
  }
  local id
  if has_011 then
    id = vim.lsp.start(lsp_config, { attach = false })
  else
    id = vim.lsp.start_client(lsp_config)
  end
  if not id then
    return nil, "cannot start the language server (" .. table.concat(cmd, " ") .. ")"
  end
  M.client_id = id
  client = vim.lsp.get_client_by_id(id)
  local ready = vim.wait(cfg.timeout_ms, function()
    return client.initialized or not client_alive(client)
  end, 20)
  if not ready or not client.initialized then
    return nil, "the language server did not start (see :LspInfo and the LSP log)"
  end
  return client
end

--- Sends `method` and waits for its answer.  Returns the result, or nil and a message.
function M.request(client, method, params, bufnr)
  local resp, err = call(client, "request_sync", method, params, M.config.timeout_ms, bufnr)
  if resp == nil then
    return nil, method .. ": " .. tostring(err or "no answer")
  end
  if resp.err ~= nil then
    local e = resp.err
    return nil, type(e) == "table" and tostring(e.message or vim.inspect(e)) or tostring(e)
  end
  return resp.result
end

local function uri_of(bufnr)
  return vim.uri_from_bufnr(bufnr)
end

-- reading and writing -----------------------------------------------------------------------------

--- BufReadCmd: fill `bufnr` with the text view of `path` and attach the client.
function M.read(bufnr, path)
  vim.b[bufnr].mlirbc_view = false
  local client, err = M.client()
  local result
  if client then
    result, err = M.request(client, "mlir/convertFromBytecode", { uri = vim.uri_from_fname(path) },
      bufnr)
  end
  if result == nil or type(result.output) ~= "string" then
    -- leave the buffer empty and refuse to write it: writing would replace the file with nothing
    report("cannot open " .. path .. ": " .. tostring(err or "no text view in the answer"))
    return false
  end
  local lines = vim.split(result.output, "\n", { plain = true })
  if lines[#lines] == "" then
    table.remove(lines) -- the final newline is the buffer's 'eol'
  end
  local undolevels = vim.bo[bufnr].undolevels
  vim.bo[bufnr].undolevels = -1 -- the loaded text is not an undoable change
  vim.api.nvim_buf_set_lines(bufnr, 0, -1, false, lines)
  vim.bo[bufnr].undolevels = undolevels
  vim.bo[bufnr].eol = true
  vim.bo[bufnr].fixeol = true
  vim.bo[bufnr].binary = false
  vim.bo[bufnr].modified = false
  vim.bo[bufnr].readonly = vim.fn.filewritable(path) ~= 1
  vim.b[bufnr].mlirbc_view = true
  vim.bo[bufnr].filetype = M.config.filetype
  vim.lsp.buf_attach_client(bufnr, client.id) -- sends didOpen with the text above
  return true
end

--- BufWriteCmd: encode the server's copy of `bufnr` and write it to `path`.  Returns true on success.
--- With `unverified`, a text that parses but does not verify is written anyway (never one that does not
--- parse): :MlirbcWriteUnverified.
function M.write(bufnr, path, unverified)
  if not vim.b[bufnr].mlirbc_view then
    report("this buffer is not a bytecode view opened through mlirbc-lsp; not writing " .. path)
    return false
  end
  if vim.fn.filereadable(path) == 1 and vim.fn.filewritable(path) ~= 1 and vim.v.cmdbang ~= 1 then
    report(path .. " is read-only (add ! to override)")
    return false
  end
  local client, err = M.client()
  if client and not vim.lsp.buf_is_attached(bufnr, client.id) then
    client, err = nil, "the language server was restarted; reopen the file with :e"
  end
  local result
  if client then
    -- mlirbc/save: the server encodes its copy of the view and writes `path` itself, atomically and
    -- streamed (a model-sized file never passes through the editor); the request flushes pending
    -- didChange notifications first.
    -- (`:w!` over a read-only file: the server writes it all the same and keeps its mode, as Vim does)
    result, err = M.request(client, "mlirbc/save",
      { uri = uri_of(bufnr), path = path, overwriteReadOnly = vim.v.cmdbang == 1,
        unverified = unverified and true or nil }, bufnr)
  end
  if result == nil or type(result.bytes) ~= "number" then
    local hint = ""
    if tostring(err):find("does not verify", 1, true) then
      hint = " (:MlirbcWriteUnverified writes it anyway)"
    end
    report("not saved, " .. path .. " is unchanged: " .. tostring(err or "no answer") .. hint)
    return false
  end
  if vim.fn.fnamemodify(path, ":p") == vim.fn.fnamemodify(vim.api.nvim_buf_get_name(bufnr), ":p") then
    vim.bo[bufnr].modified = false
  end
  vim.notify(string.format('mlirbc: "%s" %d bytes written', vim.fn.fnamemodify(path, ":~:."), result.bytes),
    vim.log.levels.INFO)
  return true
end

local function cursor_target(uri, pos)
  if type(uri) == "string" and type(pos) == "table" then
    return uri, pos
  end
  local bufnr = vim.api.nvim_get_current_buf()
  local cur = vim.api.nvim_win_get_cursor(0)
  return uri_of(bufnr), { line = cur[1] - 1, character = cur[2] }
end

--- :MlirbcShowValue (and the code action "mlirbc: Show Full Value"): the elided value at the cursor,
--- fetched from the server in chunks (progress in the message area) into a read-only scratch buffer.
function M.show_value(uri, pos)
  uri, pos = cursor_target(uri, pos)
  local client, err = M.client()
  if not client then
    report(tostring(err))
    return nil
  end
  local lines, from = {}, 0
  while true do
    local res, rerr = M.request(client, "mlirbc/valueText",
      { uri = uri, position = pos, fromLine = from, maxLines = 2000 })
    if res == nil then
      report(tostring(rerr))
      return nil
    end
    if from == 0 then
      table.insert(lines, res.header)
    end
    vim.list_extend(lines, vim.split(res.text, "\n", { plain = true }))
    from = res.nextLine
    vim.api.nvim_echo({ { string.format("mlirbc: value %d/%d lines", from, res.totalLines) } }, false, {})
    if res.done then
      break
    end
  end
  vim.cmd("new")
  local buf = vim.api.nvim_get_current_buf()
  vim.bo[buf].buftype = "nofile"
  vim.bo[buf].bufhidden = "wipe"
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  vim.bo[buf].modifiable = false
  vim.bo[buf].readonly = true
  vim.bo[buf].filetype = M.config.filetype
  return buf
end

--- :MlirbcExportValue [PATH] (and the code action "mlirbc: Export Value (.npy)"): the elided value at
--- the cursor written by the server as a .npy file.
function M.export_value(uri, pos, path)
  uri, pos = cursor_target(uri, pos)
  if not path or path == "" then
    path = vim.fn.input("Export value to: ", vim.fn.getcwd() .. "/value.npy", "file")
  end
  if path == "" then
    return nil
  end
  local client, err = M.client()
  local result
  if client then
    result, err = M.request(client, "mlirbc/exportValue", { uri = uri, position = pos, path = path })
  end
  if result == nil then
    report(tostring(err))
    return nil
  end
  vim.notify(string.format("mlirbc: wrote %s, %d bytes", result.written, result.bytes), vim.log.levels.INFO)
  return result
end

--- :MlirbcInfo: `mlirbc/info` for the current buffer's file.
function M.info(bufnr)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  local client, err = M.client()
  local result
  if client then
    result, err = M.request(client, "mlirbc/info", { uri = uri_of(bufnr) }, bufnr)
  end
  if result == nil then
    report(tostring(err))
    return nil
  end
  vim.notify(vim.inspect(result), vim.log.levels.INFO)
  return result
end

function M.setup(opts)
  M.config = vim.tbl_deep_extend("force", M.config, opts or {})
  local group = vim.api.nvim_create_augroup("mlirbc", { clear = true })
  vim.api.nvim_create_autocmd("BufReadCmd", {
    group = group,
    pattern = M.config.pattern,
    nested = true, -- let FileType autocommands run
    callback = function(args)
      M.read(args.buf, vim.fn.fnamemodify(args.file, ":p"))
    end,
  })
  vim.api.nvim_create_autocmd("BufWriteCmd", {
    group = group,
    pattern = M.config.pattern,
    callback = function(args)
      -- a refused write leaves 'modified' set, so :wq, :x and :wqa stop instead of quitting
      M.write(args.buf, vim.fn.fnamemodify(args.file, ":p"))
    end,
  })
  vim.api.nvim_create_autocmd({ "FileWriteCmd", "FileAppendCmd" }, {
    group = group,
    pattern = M.config.pattern,
    callback = function(args)
      report("only a whole bytecode view can be written as bytecode; " .. args.file .. " was not written")
    end,
  })
  vim.api.nvim_create_user_command("MlirbcWriteUnverified", function()
    local bufnr = vim.api.nvim_get_current_buf()
    M.write(bufnr, vim.fn.fnamemodify(vim.api.nvim_buf_get_name(bufnr), ":p"), true)
  end, { desc = "write the bytecode view even though it does not verify (never a text that does not parse)" })
  vim.api.nvim_create_user_command("MlirbcInfo", function()
    M.info()
  end, { desc = "mlirbc/info for the current bytecode file" })
  vim.api.nvim_create_user_command("MlirbcShowValue", function()
    M.show_value()
  end, { desc = "the elided value at the cursor, in full, in a read-only buffer" })
  vim.api.nvim_create_user_command("MlirbcExportValue", function(a)
    M.export_value(nil, nil, a.args)
  end, { nargs = "?", complete = "file", desc = "write the elided value at the cursor as .npy" })
  -- The server's code actions on an elided placeholder run these.
  vim.lsp.commands["mlirbc.showFullValue"] = function(cmd)
    M.show_value(cmd.arguments and cmd.arguments[1], cmd.arguments and cmd.arguments[2])
  end
  vim.lsp.commands["mlirbc.exportValue"] = function(cmd)
    M.export_value(cmd.arguments and cmd.arguments[1], cmd.arguments and cmd.arguments[2])
  end
end

return M
