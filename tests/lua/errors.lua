-- An uncaught error: lua prints the message and a traceback to stderr and exits with 1.
local function inner(x) return x + nil end
print("before")
inner(1)
print("not reached")
