# fslab teardown (Windows): removes the access paths and clears the disks (back to RAW) of a prep.
# Run as Administrator.
$ErrorActionPreference = 'Stop'
Set-StrictMode -Version 2.0
Import-Module Storage

function Remove-FslabVolume([int]$Number, [string]$Serial, [uint64]$Size, [string]$Path,
                            [bool]$Keep) {
    $d = Get-Disk -Number $Number -ErrorAction SilentlyContinue
    if (-not $d) { Write-Warning "disk $Number is gone: nothing to undo there"; return }
    if ($d.IsSystem -or $d.IsBoot -or [string]$d.SerialNumber -ne $Serial -or [uint64]$d.Size -ne $Size) {
        throw "disk $Number is not the disk fslab prepped (serial number or size differ): refused; undo by hand"
    }
    foreach ($p in @(Get-Partition -DiskNumber $Number -ErrorAction SilentlyContinue)) {
        if (@($p.AccessPaths) -contains $Path) {
            Remove-PartitionAccessPath -DiskNumber $Number -PartitionNumber $p.PartitionNumber -AccessPath $Path
        }
    }
    if (-not $Keep) { Clear-Disk -Number $Number -RemoveData -RemoveOEM -Confirm:$false }
    if (Test-Path -LiteralPath $Path) { Remove-Item -LiteralPath $Path -Force }
}

Remove-FslabVolume -Number 1 -Serial '6002248045A1' -Size 107374182400 -Path 'C:\fslab\db\' -Keep $false
Remove-FslabVolume -Number 2 -Serial '6002248045A2' -Size 21474836480 -Path 'C:\fslab\log\' -Keep $false
