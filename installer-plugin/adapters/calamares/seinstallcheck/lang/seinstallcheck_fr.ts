<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="fr">
<context>
    <name>SeinstallCheck</name>
    <message>
        <source>%1 could not be started (%2): install seinstall in the live system.</source>
        <translation>%1 n’a pas pu être lancé (%2) : installez seinstall dans le système live.</translation>
    </message>
    <message>
        <source>%1 did not finish within %2 s (timeout in seinstallcheck.conf).</source>
        <translation>%1 ne s’est pas terminé en %2 s (timeout dans seinstallcheck.conf).</translation>
    </message>
    <message>
        <source>%1 crashed.</source>
        <translation>%1 a planté.</translation>
    </message>
    <message>
        <source>Could not write the plan for seinstall in a temporary directory: %1.</source>
        <translation>Impossible d’écrire le plan pour seinstall dans un répertoire temporaire : %1.</translation>
    </message>
    <message>
        <source>seinstall check exited %1: %2</source>
        <translation>seinstall check s’est terminé avec le code %1 : %2</translation>
    </message>
</context>
<context>
    <name>SeinstallCheckViewStep</name>
    <message>
        <source>SELinux</source>
        <translation>SELinux</translation>
    </message>
    <message>
        <source>The file systems chosen can carry SELinux labels.</source>
        <translation>Les systèmes de fichiers choisis peuvent porter des étiquettes SELinux.</translation>
    </message>
    <message>
        <source>Every planned mount point keeps a label per file: SELinux will be set up on the installed system.</source>
        <translation>Chaque point de montage prévu conserve une étiquette par fichier : SELinux sera configuré sur le système installé.</translation>
    </message>
    <message>
        <source>SELinux: the planned file systems could not be checked</source>
        <translation>SELinux : les systèmes de fichiers prévus n’ont pas pu être vérifiés</translation>
    </message>
    <message>
        <source>Fix: %1</source>
        <translation>Solution : %1</translation>
    </message>
    <message>
        <source>Nothing has been written to any disk. Press Back and, on the partitioning page, choose file systems that keep per-file labels (ext4, xfs, btrfs) for the mount points named above.</source>
        <translation>Rien n’a été écrit sur aucun disque. Cliquez sur Précédent et, sur la page de partitionnement, choisissez pour les points de montage ci-dessus des systèmes de fichiers qui conservent une étiquette par fichier (ext4, xfs, btrfs).</translation>
    </message>
    <message>
        <source>SELinux cannot work on the file systems chosen</source>
        <translation>SELinux ne peut pas fonctionner sur les systèmes de fichiers choisis</translation>
    </message>
    <message>
        <source>SELinux: no partitioning page before this one</source>
        <translation>SELinux : aucune page de partitionnement avant celle-ci</translation>
    </message>
    <message>
        <source>The file systems are checked during the installation instead: put seinstallcheck right after partition in the show sequence of settings.conf to check them here.</source>
        <translation>Les systèmes de fichiers sont vérifiés pendant l’installation à la place : placez seinstallcheck juste après partition dans la séquence show de settings.conf pour les vérifier ici.</translation>
    </message>
    <message>
        <source>SELinux: no file system planned</source>
        <translation>SELinux : aucun système de fichiers prévu</translation>
    </message>
    <message>
        <source>The partitioning page planned no mounted file system: press Back and choose a root partition.</source>
        <translation>La page de partitionnement n’a prévu aucun système de fichiers monté : cliquez sur Précédent et choisissez une partition racine.</translation>
    </message>
</context>
</TS>
