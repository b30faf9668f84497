-- nvim_e2e.lua: headless Neovim session driven by tests/test_neovim_e2e.py.
--
-- Run as `nvim --headless --clean -u nvim_e2e.lua` with these environment variables:
--   MLIRBC_NVIM_PLUGIN  folder holding mlirbc.lua (docs/nvim)
--   MLIRBC_NVIM_CMD     JSON list: the command that starts the language server
--   MLIRBC_NVIM_A       a writable copy of a small upstream bytecode file (arith.constant 45, test.addi)
--   MLIRBC_NVIM_B       a writable copy of a JAX export (jax/mlp2.mlirbc; vhlo parts are fallbacks here)
--   MLIRBC_NVIM_OUT     where to write the observations (JSON), rewritten after every step
--   MLIRBC_NVIM_BASE64  JSON list of base64 strings for the plain-Lua decoder (answers: byte lists)
--   MLIRBC_NVIM_SNAP    a folder: after each write step the file's bytes are copied to <step>.mlirbc
-- Each step runs under pcall: a failing step records its error and the session goes on.  The script
-- ends with `qall!`; the test asserts on the JSON.

local env = vim.env
vim.o.hidden = true -- A is left modified (refused save) when B is opened
package.path = env.MLIRBC_NVIM_PLUGIN .. "/?.lua;" .. package.path
local mlirbc = require("mlirbc")

local out = { steps = {}, errors = {}, notes = {} }

local function save()
  local f = assert(io.open(env.MLIRBC_NVIM_OUT, "w"))
  f:write(vim.fn.json_encode(out))
  f:close()
end

vim.notify = function(msg, level)
  table.insert(out.notes, { msg = tostring(msg), level = level or vim.log.levels.INFO })
end

local function snapshot(name, path)
  local src = assert(io.open(path, "rb"))
  local data = src:read("*a")
  src:close()
  local dst = assert(io.open(env.MLIRBC_NVIM_SNAP .. "/" .. name .. ".mlirbc", "wb"))
  dst:write(data)
  dst:close()
end

local function step(name, fn, path)
  local t0 = vim.loop.hrtime()
  local ok, res = pcall(fn)
  if path then
    snapshot(name, path)
  end
  if ok then
    res = res or {}
    res.ms = math.floor((vim.loop.hrtime() - t0) / 1e6)
    out.steps[name] = res
  else
    out.errors[name] = tostring(res)
  end
  save()
end

local function buffer_text(buf)
  return table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), "\n")
end

-- 0-based line and column of the first occurrence of `needle` (plain text) in `buf`.
local function find(buf, needle)
  for i, line in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
    local col = line:find(needle, 1, true)
    if col then
      return i - 1, col - 1
    end
  end
  error("not in the buffer: " .. needle)
end

local function diagnostics(buf)
  local list = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    table.insert(list, { code = d.code, severity = d.severity, message = d.message, lnum = d.lnum,
      source = d.source })
  end
  return list
end

local function wait_diagnostic(buf, code, ms)
  vim.wait(ms, function()
    for _, d in ipairs(vim.diagnostic.get(buf)) do
      if d.code == code then
        return true
      end
    end
    return false
  end, 50)
  return diagnostics(buf)
end

local function request(buf, method, line, col)
  local params = { textDocument = { uri = vim.uri_from_bufnr(buf) },
    position = { line = line, character = col } }
  local answers = vim.lsp.buf_request_sync(buf, method, params, 20000) or {}
  for _, a in pairs(answers) do
    if a.err then
      error(method .. ": " .. vim.inspect(a.err))
    end
    return a.result
  end
  return nil
end

local function hover_text(result)
  if result == nil then
    return nil
  end
  local c = result.contents
  if type(c) == "string" then
    return c
  end
  if c.value then
    return c.value
  end
  local parts = {}
  for _, p in ipairs(c) do
    table.insert(parts, type(p) == "string" and p or p.value)
  end
  return table.concat(parts, "\n")
end

local function write(cmd)
  local notes = #out.notes
  local ok, err = pcall(vim.cmd, cmd or "write")
  local new = {}
  for i = notes + 1, #out.notes do
    table.insert(new, out.notes[i].msg)
  end
  return { ok = ok, error = ok and nil or tostring(err), modified = vim.bo.modified, messages = new,
    last_error = mlirbc.last_error }
end

local function open(path)
  local t0 = vim.loop.hrtime()
  vim.cmd("edit " .. vim.fn.fnameescape(path))
  local buf = vim.api.nvim_get_current_buf()
  return buf, {
    open_ms = math.floor((vim.loop.hrtime() - t0) / 1e6),
    first_line = vim.api.nvim_buf_get_lines(buf, 0, 1, false)[1],
    lines = vim.api.nvim_buf_line_count(buf),
    filetype = vim.bo[buf].filetype,
    modified = vim.bo[buf].modified,
    attached = mlirbc.client_id ~= nil and vim.lsp.buf_is_attached(buf, mlirbc.client_id),
    uri = vim.uri_from_bufnr(buf),
  }
end

-- The StableHLO models are switched off: file B stands for a file with fallback parts.
mlirbc.setup({ cmd = vim.fn.json_decode(env.MLIRBC_NVIM_CMD), timeout_ms = 120000,
               settings = { models = { disabled = { "vhlo" } } } })
out.nvim = tostring(vim.version().major) .. "." .. vim.version().minor .. "." .. vim.version().patch

-- A: the upstream file ---------------------------------------------------------------------------
local a
step("a_open", function()
  local info
  a, info = open(env.MLIRBC_NVIM_A)
  return info
end)

step("a_hover", function()
  -- A shows in the default view: custom forms, aliases
  local line, col = find(a, 'arith.constant 45')
  return { text = hover_text(request(a, "textDocument/hover", line, col + 3)) }
end)

step("a_definition", function()
  local line, col = find(a, '"test.addi"(%0, %c46_i32)')
  local res = request(a, "textDocument/definition", line, col + 13)
  if res and res[1] then
    res = res[1]
  end
  local target = res and (res.range or res.targetSelectionRange)
  local def_line = find(a, "%0 = ")
  return { target_line = target and target.start.line, expected_line = def_line,
    uri = res and (res.uri or res.targetUri) }
end)

step("a_info", function()
  local info = mlirbc.info(a)
  return { version = info.version, producer = info.producer, op_count = info.op_count,
    size = info.size }
end)

step("a_save_unedited", function()
  return write()
end, env.MLIRBC_NVIM_A)

step("a_edit", function()
  vim.cmd([[%s/arith.constant 45 : i32/arith.constant 99 : i32/]])
  local before = vim.bo.modified
  local res = write()
  res.modified_before = before
  return res
end, env.MLIRBC_NVIM_A)

step("a_sync", function()
  -- how the edits of a_edit reached the server: ranged (incremental) changes, never whole documents
  local info = mlirbc.info(a)
  local views = info.views or {}
  return { views = views }
end)

step("a_reload", function()
  vim.cmd("edit!") -- read the saved file again through the server, then save it unedited
  local res = write()
  res.text_has_edit = buffer_text(a):find("arith.constant 99 : i32", 1, true) ~= nil
  res.attached = vim.lsp.buf_is_attached(a, mlirbc.client_id)
  return res
end, env.MLIRBC_NVIM_A)

step("a_readonly", function()
  -- a read-only target: `:w` is refused, `:w!` writes it (the server keeps its mode)
  local ro = vim.fn.fnamemodify(env.MLIRBC_NVIM_A, ":h") .. "/ro_copy.mlirbc"
  vim.fn.writefile({ "old" }, ro)
  vim.loop.fs_chmod(ro, 292) -- 0444
  local plain = write("write " .. vim.fn.fnameescape(ro))
  plain.content_after = table.concat(vim.fn.readfile(ro, "b"), "\n")
  local forced = write("write! " .. vim.fn.fnameescape(ro))
  return { plain = plain, forced = forced, mode = vim.loop.fs_stat(ro).mode % 512, path = ro }
end)

step("a_invalid", function()
  vim.cmd([[%s/return %7 : i32/return %77 : i32/]])
  local diags = wait_diagnostic(a, "parse-error", 10000)
  local res = write()
  res.diagnostics = diags
  return res
end, env.MLIRBC_NVIM_A)

-- B: the JAX export with fallback ops --------------------------------------------------------------
local b
step("b_open", function()
  local info
  b, info = open(env.MLIRBC_NVIM_B)
  info.diagnostics = wait_diagnostic(b, "fallback-op", 30000)
  return info
end)

step("b_hover", function()
  local line, col = find(b, '"vhlo.dot_general_v2"')
  return { text = hover_text(request(b, "textDocument/hover", line, col + 3)) }
end)

step("b_save_unedited", function()
  return write()
end, env.MLIRBC_NVIM_B)

step("b_edit", function()
  -- rename the module's symbol with an API edit, change an integer attribute with a normal-mode edit
  local line, col = find(b, 'sym_name = "jit_mlp"')
  col = col + #'sym_name = "jit_mlp'
  vim.api.nvim_buf_set_text(b, line, col, line, col, { "_nvim" })
  line, col = find(b, "mhlo.num_partitions = 1 : i32")
  vim.api.nvim_win_set_cursor(0, { line + 1, col + #"mhlo.num_partitions = " })
  vim.cmd("normal! r4")
  local res = write()
  res.text_has_edits = buffer_text(b):find('sym_name = "jit_mlp_nvim"', 1, true) ~= nil
    and buffer_text(b):find("mhlo.num_partitions = 4 : i32", 1, true) ~= nil
  res.diagnostics = wait_diagnostic(b, "fallback-op", 5000)
  return res
end, env.MLIRBC_NVIM_B)

step("b_invalid", function()
  vim.api.nvim_buf_set_lines(b, 1, 1, false, { '  "broken.op"(' })
  local diags = wait_diagnostic(b, "parse-error", 10000)
  local res = write("wq") -- a refused save must also stop :wq
  res.diagnostics = diags
  res.still_running = true
  return res
end, env.MLIRBC_NVIM_B)

-- C: a file that is not there: nothing to show, and :w must not create it -------------------------
step("c_missing", function()
  local path = env.MLIRBC_NVIM_A:gsub("[^/]*$", "") .. "missing.mlirbc"
  local c, info = open(path)
  info.last_error = mlirbc.last_error
  vim.api.nvim_buf_set_lines(c, 0, -1, false, { "// typed text" })
  info.write = write()
  info.created = vim.loop.fs_stat(path) ~= nil
  return info
end)

-- the plain-Lua base64 decoder (Neovim before 0.10), against every byte value and padding
step("base64", function()
  local cases = {}
  for _, case in ipairs(vim.fn.json_decode(env.MLIRBC_NVIM_BASE64)) do
    local got, err = mlirbc.base64_decode_lua(case)
    local bytes = {}
    if got then
      for i = 1, #got do
        bytes[i] = got:byte(i)
      end
    end
    table.insert(cases, { bytes = bytes, error = err })
  end
  return { cases = cases }
end)

save()
vim.cmd("qall!")
